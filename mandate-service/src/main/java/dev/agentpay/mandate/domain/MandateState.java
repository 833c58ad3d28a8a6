package dev.agentpay.mandate.domain;

import java.util.Arrays;
import java.util.List;

/** The states of a mandate, by their wire names. */
public enum MandateState {
    PROPOSED("proposed"),
    SIGNED_BY_PROPOSER("signed_by_proposer"),
    SIGNED_BY_BOTH("signed_by_both"),
    IN_PROGRESS("in_progress"),
    COMPLETED("completed"),
    DISPUTED("disputed"),
    EXPIRED("expired");

    private final String wire;

    MandateState(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    /** The {@code mandate.*} event type announcing entry into this state. */
    public String eventType() {
        return "mandate." + wire;
    }

    public boolean terminal() {
        return this == COMPLETED || this == DISPUTED || this == EXPIRED;
    }

    /** Wire names of every non-terminal state (those the expiry job looks at). */
    public static List<String> liveWireNames() {
        return Arrays.stream(values()).filter(s -> !s.terminal()).map(MandateState::wire).toList();
    }

    public static MandateState fromWire(String wire) {
        for (MandateState s : values()) {
            if (s.wire.equals(wire)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown mandate state " + wire);
    }
}
