package dev.agentpay.commons.events;

import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * An operator command for a chain's {@code MandateEscrow} (issue 30), produced by mandate-service through its outbox
 * on {@code escrow-commands} and executed once by settlement-watcher with the chain's escrow operator key
 * (idempotent by {@link #commandId}; a release is also refused on chain when its {@code ref} was used). Types
 * {@code escrow.release} (amount, ref, chargeId), {@code escrow.freeze}, {@code escrow.resolve} (toCounterparty,
 * toProposer). The aggregate id (the Kafka key) is the mandate hash. Amounts are atomic USDC units as decimal
 * strings; ids 0x hex. The contract's own event comes back on {@code escrow-events}; a permanent refusal as
 * {@code escrow.command_failed}.
 */
public record EscrowCommand(
        @JsonUnwrapped EventHeader header,
        String commandId,
        String chain,
        String escrowId,
        String mandateHash,
        String amount,
        String ref,
        String chargeId,
        String toCounterparty,
        String toProposer) implements DomainEvent {

    public static final String RELEASE = "escrow.release";
    public static final String FREEZE = "escrow.freeze";
    public static final String RESOLVE = "escrow.resolve";
    public static final int SCHEMA_VERSION = 1;

    @Override
    public String topic() {
        return Topics.ESCROW_COMMANDS;
    }
}
