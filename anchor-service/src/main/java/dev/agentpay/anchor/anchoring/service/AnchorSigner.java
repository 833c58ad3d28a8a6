package dev.agentpay.anchor.anchoring.service;

import dev.agentpay.anchor.config.AnchorConfig;
import dev.agentpay.anchor.anchoring.domain.SignedTx;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;
import org.web3j.crypto.Credentials;
import org.web3j.crypto.Hash;
import org.web3j.crypto.RawTransaction;
import org.web3j.crypto.TransactionEncoder;
import org.web3j.utils.Numeric;

/** Holds the anchor signer's key (never exposed) and signs EIP-1559 transactions to the anchor contract. */
@ApplicationScoped
public class AnchorSigner {

    @Inject
    AnchorConfig config;

    private Credentials credentials;

    @PostConstruct
    void init() {
        credentials = Credentials.create(config.signerKey().reveal());
    }

    /** The signer's address, lower-case {@code 0x} hex. */
    public String address() {
        return credentials.getAddress().toLowerCase();
    }

    /**
     * Signs a no-op (0-value transfer to itself, 21,000 gas) that only uses up {@code nonce}: fills a nonce
     * the chain lost, so the signer's later transactions can be mined (AnchorPipeline's gap healing).
     */
    public SignedTx signNoop(long nonce, BigInteger maxPriorityFeeWei, BigInteger maxFeeWei) {
        RawTransaction tx = RawTransaction.createTransaction(config.chainId(), BigInteger.valueOf(nonce), BigInteger.valueOf(21_000),
                address(), BigInteger.ZERO, "0x", maxPriorityFeeWei, maxFeeWei);
        byte[] signed = TransactionEncoder.signMessage(tx, credentials);
        return new SignedTx(nonce, Numeric.toHexString(Hash.sha3(signed)), Numeric.toHexString(signed), 0, BigInteger.valueOf(21_000),
                maxFeeWei, maxPriorityFeeWei);
    }

    /** Signs a call to the anchor contract; the hash is computed locally so it is known before broadcasting. */
    public SignedTx sign(long nonce, BigInteger gasLimit, String data, BigInteger maxPriorityFeeWei, BigInteger maxFeeWei,
            int itemCount) {
        RawTransaction tx = RawTransaction.createTransaction(config.chainId(), BigInteger.valueOf(nonce), gasLimit,
                config.contractAddress(), BigInteger.ZERO, data, maxPriorityFeeWei, maxFeeWei);
        byte[] signed = TransactionEncoder.signMessage(tx, credentials);
        return new SignedTx(nonce, Numeric.toHexString(Hash.sha3(signed)), Numeric.toHexString(signed), itemCount, gasLimit,
                maxFeeWei, maxPriorityFeeWei);
    }
}
