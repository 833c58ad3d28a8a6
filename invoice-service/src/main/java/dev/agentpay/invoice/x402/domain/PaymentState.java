package dev.agentpay.invoice.x402.domain;

/**
 * Life of a payment: {@code SETTLING} (claimed, at the facilitator; its nonce is taken), {@code SETTLED}
 * (money moved, result not yet written), {@code COMPLETED} (result written in the same transaction as
 * the state change), {@code FAILED} (refused or never reached the chain; the nonce may be presented again).
 */
public enum PaymentState {
    SETTLING, SETTLED, COMPLETED, FAILED
}
