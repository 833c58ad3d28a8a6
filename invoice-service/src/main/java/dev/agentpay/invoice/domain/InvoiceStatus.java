package dev.agentpay.invoice.domain;

/** {@code PENDING} on creation; {@code SETTLED} when the watcher saw the payment (back to PENDING if a reorg retracts it). */
public enum InvoiceStatus {
    PENDING, SETTLED
}
