package dev.agentpay.settlement.deposit.domain;

import java.util.UUID;

/** A registered address; {@code backfillFrom} is the first block still to back-fill (null: none). */
public record Deposit(long seq, String chain, String address, UUID invoiceId, Long backfillFrom) {
}
