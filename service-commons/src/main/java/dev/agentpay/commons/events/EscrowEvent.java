package dev.agentpay.commons.events;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * An event of a chain's {@code MandateEscrow} contract (issue 30) published by settlement-watcher on
 * {@code escrow-events} once it has the chain's confirmations, or a fact about the escrow the watcher learned:
 * {@code escrow.rolled_back} (a reorg removed an event already published; {@link #rolledBackEventId} names it) and
 * {@code escrow.command_failed} (the contract refused an {@link EscrowCommand} for good; {@link #commandId},
 * {@link #reason}). The aggregate id (the Kafka key) is the mandate hash. Amounts are atomic USDC units as decimal
 * strings; hashes and addresses lower-case 0x hex; times unix seconds. Fields that do not apply are null. The
 * interface: settlement-watcher's README, "Mandate escrow", and mandate-service's README, "Escrow".
 *
 * @param totals the escrow's totals read from the contract at the event's block ({@code totals(id)})
 * @param state  the escrow's state at that block: none, active, frozen, resolved, refunded
 */
public record EscrowEvent(
        @JsonUnwrapped EventHeader header,
        String chain,
        String contract,
        String escrowId,
        String mandateHash,
        String txHash,
        Integer logIndex,
        Long blockNumber,
        String blockHash,
        String amount,
        String ref,
        String toCounterparty,
        String toProposer,
        String funder,
        String counterparty,
        Long streamStart,
        Long streamEnd,
        Long expiresAt,
        Totals totals,
        String state,
        String commandId,
        String reason,
        String rolledBackEventId) implements DomainEvent {

    public static final String FUNDED = "escrow.funded";
    public static final String RELEASED = "escrow.released";
    public static final String WITHDRAWN = "escrow.withdrawn";
    public static final String FROZEN = "escrow.frozen";
    public static final String RESOLVED = "escrow.resolved";
    public static final String REFUNDED = "escrow.refunded";
    public static final String ROLLED_BACK = "escrow.rolled_back";
    public static final String COMMAND_FAILED = "escrow.command_failed";
    public static final int SCHEMA_VERSION = 1;

    /** An escrow's totals; held = funded - released - withdrawn - refunded. */
    public record Totals(String funded, String released, String withdrawn, String refunded, String held) {
    }

    /** {@code chain:txHash:logIndex}: one contract event across detections. */
    public static String logId(String chain, String txHash, int logIndex) {
        return chain + ":" + txHash + ":" + logIndex;
    }

    @Override
    public String topic() {
        return Topics.ESCROW_EVENTS;
    }
}
