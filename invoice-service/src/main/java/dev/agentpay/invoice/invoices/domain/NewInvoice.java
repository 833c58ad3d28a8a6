package dev.agentpay.invoice.invoices.domain;

import dev.agentpay.commons.chains.Chain;
import java.math.BigDecimal;

/** A validated creation request ({@code expiresAt} null: the default lifetime). */
public record NewInvoice(BigDecimal amount, String currency, String customerEmail, String customerName,
        String description, Chain chain, java.time.Instant expiresAt) {
}
