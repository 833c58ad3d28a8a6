package dev.agentpay.anchor.anchoring.service;

import dev.agentpay.anchor.client.AnchorChainClient;
import dev.agentpay.anchor.config.AnchorConfig;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;

/**
 * EIP-1559 fees of anchor transactions: {@code maxFee = base fee × multiplier + tip}, capped by
 * {@code anchor.fees.max-fee-cap-wei}; the base fee is re-read at most about once a block (the multiplier
 * absorbs the drift).
 */
@ApplicationScoped
public class FeePolicy {

    /** The fees of one signature. */
    public record Fees(BigInteger tip, BigInteger maxFee, BigInteger baseFee) {

        /** Whether the cap leaves room for the current base fee plus the tip (otherwise: wait, do not overpay). */
        boolean affordable() {
            return maxFee.compareTo(baseFee.add(tip)) >= 0;
        }
    }

    @Inject
    AnchorConfig config;
    @Inject
    AnchorChainClient chain;

    private volatile BigInteger baseFee;
    private volatile long baseFeeAt;

    /** The fees to sign with now. */
    public Uni<Fees> current() {
        return baseFee().map(this::fees);
    }

    Fees fees(BigInteger base) {
        AnchorConfig.Fees f = config.fees();
        BigInteger tip = f.maxPriorityFeeWei();
        BigInteger maxFee = base.multiply(BigInteger.valueOf(f.baseFeeMultiplier())).add(tip).min(f.maxFeeCapWei());
        return new Fees(tip, maxFee, base);
    }

    /** The gas limit for an estimate: the estimate plus {@code anchor.fees.gas-limit-margin-percent}. */
    BigInteger gasLimit(BigInteger estimate) {
        return estimate.multiply(BigInteger.valueOf(100L + config.fees().gasLimitMarginPercent())).divide(BigInteger.valueOf(100));
    }

    private Uni<BigInteger> baseFee() {
        BigInteger cached = baseFee;
        if (cached != null && System.nanoTime() - baseFeeAt < 1_000_000_000L) {
            return Uni.createFrom().item(cached);
        }
        return chain.latestBaseFee().invoke(f -> {
            baseFee = f;
            baseFeeAt = System.nanoTime();
        });
    }
}
