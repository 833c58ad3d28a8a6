package dev.agentpay.commons.events;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A mandate state change ({@code mandate.proposed}, {@code mandate.signed_by_proposer}, ...), or
 * {@link #ANCHORED}: the on-chain receipt of one earlier transition has been recorded (not a state change:
 * {@code fromState} is null, {@code toState} is the anchored transition's state, {@code transitionId} that
 * transition; anchor-service never anchors it).
 *
 * @param transitionId the transition row this change created (what anchor-service anchors)
 * @param fromState    state before the change, {@code null} for creation
 * @param toState      state after the change
 * @param mandateHash  the {@code 0x} hash of the canonical mandate bytes
 * @param mandate      the full public Mandate row as the API returns it (the webhook {@code data})
 */
public record MandateEvent(
        @JsonUnwrapped EventHeader header,
        String transitionId,
        String fromState,
        String toState,
        String mandateHash,
        JsonNode mandate) implements DomainEvent {

    public static final int SCHEMA_VERSION = 1;

    /** Type of the event announcing that a transition's anchor receipt was recorded on the mandate. */
    public static final String ANCHORED = "mandate.anchored";

    @Override
    public String topic() {
        return Topics.MANDATE_EVENTS;
    }
}
