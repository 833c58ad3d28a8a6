package dev.agentpay.mandate.escrow.service;

import dev.agentpay.commons.chains.Chain;
import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.commons.chains.escrow.MandateEscrowAbi;
import dev.agentpay.commons.chains.escrow.MandateEscrowAbi.Terms;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.mandate.budget.domain.Usdc;
import dev.agentpay.mandate.escrow.domain.FundingInstructions;
import dev.agentpay.mandate.escrow.domain.FundingRequest;
import dev.agentpay.mandate.mandates.domain.Mandate;
import dev.agentpay.mandate.mandates.repository.MandateRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Funding instructions for a mandate's escrow ({@code POST /v1/mandates/{id}/escrow}; issue 30): the chain's
 * MandateEscrow, the budget amount, the escrow id of (mandate hash, payer), and either the approve + fund calldata or
 * the EIP-3009 ReceiveWithAuthorization typed data whose nonce commits to the terms, plus the fundWithAuthorization
 * call to submit. Nothing is written: the escrow exists once its funding is on chain, and settlement-watcher
 * publishes it ({@code escrow.funded}). The counterparty the contract pays is the chain's payment address (where
 * every invoice of the chain is paid, so a release pays what a charge's invoice would have received).
 */
@ApplicationScoped
public class EscrowFundingService {

    @Inject
    MandateRepository mandates;

    @Inject
    ChainTable chains;

    @Inject
    Pool pool;

    /** How long an EIP-3009 authorization stays valid (its validBefore). */
    @ConfigProperty(name = "escrow-funding.authorization-validity", defaultValue = "PT1H")
    Duration authorizationValidity;

    public Uni<FundingInstructions> instructions(String partnerId, String mandateId, FundingRequest r) {
        Chain chain = Chain.of(r.chain()).filter(c -> c.kind() == Chain.Kind.EVM)
                .orElseThrow(() -> ApiException.badRequest("unsupported_chain", "chain must be one of base, polygon, arbitrum, skale"));
        ChainTable.Entry e = chains.get(chain);
        if (!e.enabled() || e.escrowAddress().isEmpty() || e.paymentAddress().isEmpty()) {
            throw ApiException.badRequest("escrow_not_available", "chain " + chain.value() + " has no escrow contract configured");
        }
        Long start = r.streamStart() == null ? null : epochSeconds("stream.start", r.streamStart());
        Long end = r.streamEnd() == null ? null : epochSeconds("stream.end", r.streamEnd());
        return pool.withConnection(conn -> mandates.find(conn, mandateId, partnerId)).map(m -> build(m, e, r, start, end));
    }

    private FundingInstructions build(Mandate m, ChainTable.Entry e, FundingRequest r, Long start, Long end) {
        if (m == null) {
            throw ApiException.notFound("mandate_not_found", "no such mandate");
        }
        if (!m.state.fullySigned()) {
            throw ApiException.conflict("mandate_not_signed", "the mandate is " + m.state.wire()
                    + "; an escrow is funded once every party signed (signed_by_both or signed_by_all)");
        }
        if (m.budget == null) {
            throw ApiException.conflict("no_budget", "the mandate has no budget: the escrow holds the budget amount");
        }
        Instant now = Instant.now();
        if (m.expiresAt == null || !m.expiresAt.isAfter(now)) {
            throw ApiException.conflict("mandate_expired", "the mandate has expired");
        }
        long expiresAt = m.expiresAt.getEpochSecond();
        long streamStart = start == null ? 0 : start;
        long streamEnd = end == null ? 0 : end;
        if (start != null) {
            if (streamStart <= 0) {
                throw ApiException.invalidField("stream.start", "must be after 1970-01-01T00:00:00Z");
            }
            if (streamEnd <= streamStart) {
                throw ApiException.invalidField("stream.end", "must be after stream.start");
            }
            if (streamEnd > expiresAt) {
                throw ApiException.invalidField("stream.end", "must not be after the mandate's expiry (" + m.expiresAt + ")");
            }
        }
        BigInteger amount = m.budget.amountAtomic();
        String escrow = MandateEscrowAbi.address(e.escrowAddress().orElseThrow());
        String token = MandateEscrowAbi.address(e.usdcAddress());
        String payer = MandateEscrowAbi.address(r.payer());
        Terms t = new Terms(m.protoMandateHash, e.paymentAddress().orElseThrow(), amount, streamStart, streamEnd, expiresAt);
        long chainId = Long.parseLong(e.networkId());
        String escrowId = MandateEscrowAbi.escrowId(t.mandateHash(), payer);
        if ("eip3009".equals(r.method())) {
            BigInteger validBefore = BigInteger.valueOf(Math.min(now.plus(authorizationValidity).getEpochSecond(), expiresAt));
            Map<String, Object> typed = MandateEscrowAbi.receiveWithAuthorizationTypedData(e.usdcEip712Name(), e.usdcEip712Version(),
                    chainId, token, escrow, payer, t, BigInteger.ZERO, validBefore);
            // the call's data is the prefix then three words: v, r, s of the payer's signature
            String full = MandateEscrowAbi.fundWithAuthorization(t, payer, BigInteger.ZERO, validBefore, 27, "0x" + "00".repeat(32),
                    "0x" + "00".repeat(32));
            String prefix = full.substring(0, full.length() - 3 * 64);
            FundingInstructions.Call submit = new FundingInstructions.Call(escrow, null, prefix,
                    MandateEscrowAbi.FUND_WITH_AUTHORIZATION,
                    "anyone submits it (the payer needs no gas): data = data_prefix + v (32-byte word) + r + s of the payer's "
                            + "signature of typed_data");
            return new FundingInstructions(m.id, e.name(), chainId, escrow, token, t.mandateHash(), escrowId, payer, t.counterparty(),
                    Usdc.text(amount), amount.toString(), streamStart, streamEnd, expiresAt, r.method(), List.of(submit), typed,
                    validBefore.longValueExact());
        }
        List<FundingInstructions.Call> calls = List.of(
                new FundingInstructions.Call(token, MandateEscrowAbi.approve(escrow, amount), null, "approve(address,uint256)",
                        "from the payer: let the escrow take the budget amount"),
                new FundingInstructions.Call(escrow, MandateEscrowAbi.fund(t), null,
                        "fund(bytes32,address,uint256,uint64,uint64,uint64)", "from the payer: fund the escrow (after the approve is mined)"));
        return new FundingInstructions(m.id, e.name(), chainId, escrow, token, t.mandateHash(), escrowId, payer, t.counterparty(),
                Usdc.text(amount), amount.toString(), streamStart, streamEnd, expiresAt, r.method(), calls, null, null);
    }

    private static long epochSeconds(String field, String iso) {
        try {
            return Instant.parse(iso).getEpochSecond();
        } catch (DateTimeParseException ex) {
            throw ApiException.invalidField(field, "must be an ISO 8601 UTC timestamp");
        }
    }

}
