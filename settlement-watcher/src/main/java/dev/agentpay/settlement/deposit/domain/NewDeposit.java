package dev.agentpay.settlement.deposit.domain;

import java.time.Instant;
import java.util.UUID;

/** An address announced by an {@code invoice.created} event. */
public record NewDeposit(String chain, String address, UUID invoiceId, Instant invoiceCreated) {
}
