package dev.agentpay.mandate.domain;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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

    /**
     * Every transition the service makes, as {state: the states it may move to}; the creation row
     * ({@code null} to {@code proposed}) is the only other one. {@code MandateService} refuses to write any
     * other move, and discovery-service's {@code reference/mandate-state-machine.json} is checked against
     * this table ({@code StateMachineDocumentTest}).
     */
    public static final Map<MandateState, Set<MandateState>> TRANSITIONS = Map.of(
            PROPOSED, EnumSet.of(SIGNED_BY_PROPOSER, EXPIRED),
            SIGNED_BY_PROPOSER, EnumSet.of(SIGNED_BY_BOTH, EXPIRED),
            SIGNED_BY_BOTH, EnumSet.of(IN_PROGRESS, DISPUTED, EXPIRED),
            IN_PROGRESS, EnumSet.of(COMPLETED, DISPUTED, EXPIRED),
            COMPLETED, EnumSet.noneOf(MandateState.class),
            DISPUTED, EnumSet.noneOf(MandateState.class),
            EXPIRED, EnumSet.noneOf(MandateState.class));

    /** Whether the service may move a mandate from {@code from} ({@code null}: creation) to {@code to}. */
    public static boolean allowed(MandateState from, MandateState to) {
        return from == null ? to == PROPOSED : TRANSITIONS.get(from).contains(to);
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
