package dev.agentpay.invoice.x402.domain;

import java.math.BigDecimal;

/**
 * What a paid {@code POST /api/x402/invoice} asks for, as validated by the rest layer: every field optional
 * ({@code null}: the default; the amount defaults to the configured price).
 */
public record InvoiceOrder(String issuer, String recipient, String email, BigDecimal amount, String description) {

    /** An absent body: every field defaulted. */
    public static final InvoiceOrder EMPTY = new InvoiceOrder(null, null, null, null, null);
}
