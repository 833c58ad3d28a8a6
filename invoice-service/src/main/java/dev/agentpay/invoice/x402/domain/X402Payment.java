package dev.agentpay.invoice.x402.domain;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigInteger;
import java.time.Instant;
import java.util.UUID;

/** One payment as stored, with the validated call it pays for ({@code request}) and its result. */
public record X402Payment(UUID id, String key, Capability capability, int version, String network, String payer,
        String payTo, String asset, BigInteger amount, Instant validBefore, String nonce, PaymentState state,
        JsonNode request, String txHash, UUID invoiceId, String failureCode, String failureMessage,
        Instant createdAt, Instant updatedAt) {
}
