package dev.agentpay.mandate.mandates.domain;

import java.time.Instant;
import java.util.UUID;

/**
 * One state change of a mandate. {@code metadata} is a JSON object text holding at least
 * {@code triggered_by}; the anchor fields fill in when anchor-service reports the on-chain receipt.
 */
public record Transition(
        UUID id,
        String mandateId,
        int seq,
        MandateState fromState,
        MandateState toState,
        String metadata,
        String anchorTxHash,
        Long anchorBlockNumber,
        Long anchorChainId,
        Instant anchoredAt,
        Instant createdAt,
        Integer anchorLogIndex,
        String anchorContract,
        /** The anchor signer that sent the anchoring transaction (null for receipts recorded before signer rotation). */
        String anchorSigner) {

    /** A transition without the anchor signer (not anchored yet, or anchored before signer rotation). */
    public Transition(UUID id, String mandateId, int seq, MandateState fromState, MandateState toState, String metadata,
            String anchorTxHash, Long anchorBlockNumber, Long anchorChainId, Instant anchoredAt, Instant createdAt,
            Integer anchorLogIndex, String anchorContract) {
        this(id, mandateId, seq, fromState, toState, metadata, anchorTxHash, anchorBlockNumber, anchorChainId, anchoredAt,
                createdAt, anchorLogIndex, anchorContract, null);
    }

    /** Never anchored: the creation row (rule of the spec). */
    public static final String ANCHOR_NONE = "none";
    /** Anchored on chain, but its receipt has not been recorded yet ({@code anchor_tx_hash} null). */
    public static final String ANCHOR_PENDING = "pending";
    /** The receipt is recorded: {@code anchor_tx_hash} and the other anchor fields are set. */
    public static final String ANCHOR_ANCHORED = "anchored";

    /** {@code anchor_status} of this transition: {@code none}, {@code pending} or {@code anchored}. */
    public String anchorStatus() {
        if (fromState == null) {
            return ANCHOR_NONE;
        }
        return anchorTxHash == null ? ANCHOR_PENDING : ANCHOR_ANCHORED;
    }

    /**
     * The {@code anchor_status} of a mandate as a whole: {@code pending} while any transition after creation
     * waits for its receipt, {@code anchored} once all have one, {@code none} when only the creation row exists.
     */
    public static String overallAnchorStatus(java.util.List<Transition> transitions) {
        String status = ANCHOR_NONE;
        for (Transition t : transitions) {
            String s = t.anchorStatus();
            if (ANCHOR_PENDING.equals(s)) {
                return ANCHOR_PENDING;
            }
            if (ANCHOR_ANCHORED.equals(s)) {
                status = ANCHOR_ANCHORED;
            }
        }
        return status;
    }
}
