package dev.agentpay.mandate.budget.domain;

import java.math.BigInteger;
import java.time.Instant;

/**
 * One charge against a mandate's budget. Status: {@code reserving} (the amount is reserved, the invoice not yet
 * created: the request, or the recovery loop after a crash, is creating it), {@code pending} (its invoice
 * exists; reserved), {@code settled} (the invoice settled: spent), {@code released} (the invoice expired: the
 * reservation given back).
 */
public record Charge(
        String id,
        long seq,
        String mandateId,
        String partnerId,
        BigInteger amountAtomic,
        String chain,
        String description,
        Instant invoiceExpiresAt,
        String status,
        String invoiceId,
        String idempotencyKey,
        String fingerprint,
        String answer,
        Instant createdAt,
        Instant settledAt,
        Instant releasedAt,
        Instant settledPeriodStart) {

    public static final String RESERVING = "reserving";
    public static final String PENDING = "pending";
    public static final String SETTLED = "settled";
    public static final String RELEASED = "released";
}
