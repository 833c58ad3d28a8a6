package dev.agentpay.invoice.invoices.domain;

/**
 * {@code PENDING} on creation (payments may arrive in parts); {@code SETTLED} when what was received
 * reached the amount (back to PENDING if a reorg retracts a payment it needed); {@code EXPIRED} when
 * it can no longer be paid (EVM invoices of the shared-seller-wallet era, see README).
 */
public enum InvoiceStatus {
    PENDING, SETTLED, EXPIRED
}
