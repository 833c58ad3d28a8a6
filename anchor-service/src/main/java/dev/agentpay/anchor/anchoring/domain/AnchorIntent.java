package dev.agentpay.anchor.anchoring.domain;

import dev.agentpay.commons.events.MandateEvent;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * One mandate transition waiting to be anchored (a row of {@code anchor_intent}); {@code traceParent} is
 * the trace of the event it came from (null if none), which its receipt continues.
 */
public record AnchorIntent(
        String transitionId,
        UUID eventId,
        String mandateId,
        String partnerId,
        String mandateHash,
        String state,
        Instant eventAt,
        String traceParent) {

    /** Type of the creation event, which carries no anchor (rule 3 of the mandate state machine). */
    public static final String CREATION_TYPE = "mandate.proposed";

    private static final Pattern HASH = Pattern.compile("0x[0-9a-f]{64}");
    private static final Pattern STATE = Pattern.compile("[a-z_]{1,32}");

    /**
     * The intent an event asks for: empty for the creation event (no anchor by design) and for
     * {@code mandate.anchored} (a receipt recorded, not a transition).
     *
     * @throws IllegalArgumentException when a transition event lacks what an anchor needs
     */
    public static Optional<AnchorIntent> of(MandateEvent e) {
        // mandate.anchored reports a receipt (no state change): anchoring it would anchor forever
        if (CREATION_TYPE.equals(e.type()) || MandateEvent.ANCHORED.equals(e.type()) || e.fromState() == null) {
            return Optional.empty();
        }
        String hash = e.mandateHash() == null ? null : e.mandateHash().toLowerCase();
        if (hash == null || !HASH.matcher(hash).matches()) {
            throw new IllegalArgumentException("mandateHash is not 0x + 64 hex");
        }
        if (e.toState() == null || !STATE.matcher(e.toState()).matches()) {
            throw new IllegalArgumentException("toState is not a state name");
        }
        if (e.transitionId() == null || e.transitionId().isBlank() || e.transitionId().length() > 128) {
            throw new IllegalArgumentException("transitionId missing or too long");
        }
        if (e.aggregateId() == null || e.eventId() == null) {
            throw new IllegalArgumentException("event id or mandate id missing");
        }
        return Optional.of(new AnchorIntent(e.transitionId(), e.eventId(), e.aggregateId(), e.partnerId(), hash,
                e.toState(), e.occurredAt() == null ? Instant.now() : e.occurredAt(), null));
    }

    /** The same intent belonging to the trace {@code traceparent}. */
    public AnchorIntent withTrace(String traceparent) {
        return new AnchorIntent(transitionId, eventId, mandateId, partnerId, mandateHash, state, eventAt, traceparent);
    }
}
