package dev.agentpay.invoice.domain;

import dev.agentpay.commons.chains.Chain;
import java.math.BigDecimal;

/** A validated creation request. */
public record NewInvoice(BigDecimal amount, String currency, String customerEmail, String customerName,
        String description, Chain chain) {
}
