package dev.agentpay.mandate.mandates.domain;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** The states of a mandate; the wire name of each is its constant's name in lower case. */
public enum MandateState {
    PROPOSED,
    SIGNED_BY_PROPOSER,
    /** Parties form with three or more parties: at least two signed, at least one has not. */
    PARTIALLY_SIGNED,
    SIGNED_BY_BOTH,
    /** Parties form with three or more parties: every party signed (the equivalent of {@link #SIGNED_BY_BOTH}). */
    SIGNED_BY_ALL,
    IN_PROGRESS,
    COMPLETED,
    /**
     * A dispute is open (issue 30): it waits for the arbiter's resolution or its deadline, collects evidence from
     * the parties, and never expires with the mandate's {@code expires_at}. Not terminal since issue 30.
     */
    DISPUTED,
    /** The dispute was decided (the arbiter's split, or the deadline's refund to the funder). Terminal. */
    RESOLVED,
    EXPIRED;

    /** Event type of the {@code disputed -> resolved} edge (not {@code mandate.resolved}: it names what ended). */
    public static final String DISPUTE_RESOLVED_EVENT = "mandate.dispute_resolved";

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The {@code mandate.*} event type announcing entry into this state ({@code mandate.dispute_resolved} for resolved). */
    public String eventType() {
        return this == RESOLVED ? DISPUTE_RESOLVED_EVENT : "mandate." + wire();
    }

    /**
     * Every transition the service makes, as {state: the states it may move to}; the creation row
     * ({@code null} to {@code proposed}) is the only other one. {@code MandateService} refuses to write any
     * other move, and discovery-service's {@code reference/mandate-state-machine.json} is checked against
     * this table ({@code StateMachineDocumentTest}).
     */
    public static final Map<MandateState, Set<MandateState>> TRANSITIONS = Map.of(
            PROPOSED, EnumSet.of(SIGNED_BY_PROPOSER, EXPIRED),
            SIGNED_BY_PROPOSER, EnumSet.of(SIGNED_BY_BOTH, PARTIALLY_SIGNED, EXPIRED),
            PARTIALLY_SIGNED, EnumSet.of(PARTIALLY_SIGNED, SIGNED_BY_ALL, EXPIRED),
            SIGNED_BY_BOTH, EnumSet.of(IN_PROGRESS, DISPUTED, EXPIRED),
            SIGNED_BY_ALL, EnumSet.of(IN_PROGRESS, DISPUTED, EXPIRED),
            IN_PROGRESS, EnumSet.of(COMPLETED, DISPUTED, EXPIRED),
            COMPLETED, EnumSet.noneOf(MandateState.class),
            DISPUTED, EnumSet.of(RESOLVED),
            RESOLVED, EnumSet.noneOf(MandateState.class),
            EXPIRED, EnumSet.noneOf(MandateState.class));

    /** Whether the service may move a mandate from {@code from} ({@code null}: creation) to {@code to}. */
    public static boolean allowed(MandateState from, MandateState to) {
        return from == null ? to == PROPOSED : TRANSITIONS.get(from).contains(to);
    }

    /**
     * Whether every party has signed: {@code signed_by_both} (two parties) or {@code signed_by_all} (three or
     * more). The one predicate for "the mandate is in force and nothing has happened under it yet": start,
     * complete, dispute (and charges against a budget) accept exactly these states.
     */
    public boolean fullySigned() {
        return this == SIGNED_BY_BOTH || this == SIGNED_BY_ALL;
    }

    /** Whether a party may still sign: the mandate was proposed and not every party has signed. */
    public boolean collectingSignatures() {
        return this == PROPOSED || this == SIGNED_BY_PROPOSER || this == PARTIALLY_SIGNED;
    }

    public boolean terminal() {
        return this == COMPLETED || this == RESOLVED || this == EXPIRED;
    }

    /**
     * Whether the mandate moves to {@code expired} once its {@code expires_at} passes: every non-terminal state but
     * {@code disputed} (a dispute ends by its resolution or its own deadline, never by the mandate's expiry).
     */
    public boolean expirable() {
        return !terminal() && this != DISPUTED;
    }

    /** Wire names of every state that expires with {@code expires_at} (those the expiry job looks at). */
    public static List<String> liveWireNames() {
        return Arrays.stream(values()).filter(MandateState::expirable).map(MandateState::wire).toList();
    }

    public static MandateState fromWire(String wire) {
        return Arrays.stream(values()).filter(s -> s.wire().equals(wire)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown mandate state " + wire));
    }
}
