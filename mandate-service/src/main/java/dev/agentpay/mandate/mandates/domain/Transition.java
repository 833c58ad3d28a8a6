package dev.agentpay.mandate.mandates.domain;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * One state change of a mandate. {@code metadata} is a JSON object text holding at least
 * {@code triggered_by}; the anchor fields fill in when anchor-service reports the on-chain receipt: the
 * {@code anchor*} columns the primary chain's, {@link #anchors} every chain's.
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
        String anchorSigner,
        /** Every chain's anchor of this transition (the primary's included), by chain id. */
        List<ChainAnchor> anchors,
        /** The chains every transition is anchored on ({@code ANCHOR_CHAINS}, primary first). */
        List<Long> anchorChains) {

    /** One chain's anchor of a transition: the MandateAnchored log there. */
    public record ChainAnchor(long chainId, String txHash, long blockNumber, Integer logIndex, String contract,
            String signer, Instant anchoredAt) {
    }

    /** A transition with only the primary chain's anchor columns (a new transition: none yet). */
    public Transition(UUID id, String mandateId, int seq, MandateState fromState, MandateState toState, String metadata,
            String anchorTxHash, Long anchorBlockNumber, Long anchorChainId, Instant anchoredAt, Instant createdAt,
            Integer anchorLogIndex, String anchorContract, String anchorSigner) {
        this(id, mandateId, seq, fromState, toState, metadata, anchorTxHash, anchorBlockNumber, anchorChainId, anchoredAt,
                createdAt, anchorLogIndex, anchorContract, anchorSigner,
                anchorTxHash == null || anchorChainId == null || anchorBlockNumber == null ? List.of()
                        : List.of(new ChainAnchor(anchorChainId, anchorTxHash, anchorBlockNumber, anchorLogIndex,
                                anchorContract, anchorSigner, anchoredAt)),
                anchorChainId == null ? List.of() : List.of(anchorChainId));
    }

    /** A transition without the anchor signer (not anchored yet, or anchored before signer rotation). */
    public Transition(UUID id, String mandateId, int seq, MandateState fromState, MandateState toState, String metadata,
            String anchorTxHash, Long anchorBlockNumber, Long anchorChainId, Instant anchoredAt, Instant createdAt,
            Integer anchorLogIndex, String anchorContract) {
        this(id, mandateId, seq, fromState, toState, metadata, anchorTxHash, anchorBlockNumber, anchorChainId, anchoredAt,
                createdAt, anchorLogIndex, anchorContract, null);
    }

    /** Never anchored: the creation row (rule of the spec). */
    public static final String ANCHOR_NONE = "none";
    /** No chain's anchor receipt has been recorded yet. */
    public static final String ANCHOR_PENDING = "pending";
    /** Some chains' receipts are recorded, not every chain's of {@code ANCHOR_CHAINS} (one anchor chain lags or is down). */
    public static final String ANCHOR_PARTIAL = "partially_anchored";
    /** The receipt of every chain of {@code ANCHOR_CHAINS} is recorded. */
    public static final String ANCHOR_ANCHORED = "anchored";

    /**
     * {@code anchor_status} of this transition: {@code none} (creation), {@code pending} (no chain's receipt yet),
     * {@code partially_anchored} (some of {@link #anchorChains}) or {@code anchored} (all of them).
     */
    public String anchorStatus() {
        if (fromState == null) {
            return ANCHOR_NONE;
        }
        if (anchors.isEmpty()) {
            return ANCHOR_PENDING;
        }
        return missingChains().isEmpty() ? ANCHOR_ANCHORED : ANCHOR_PARTIAL;
    }

    /** The chains of {@link #anchorChains} without this transition's anchor yet. */
    public List<Long> missingChains() {
        return anchorChains.stream().filter(c -> anchors.stream().noneMatch(a -> a.chainId() == c)).toList();
    }

    /**
     * The {@code anchor_status} of a mandate as a whole: {@code pending} while any transition after creation has no
     * receipt, else {@code partially_anchored} while any lacks a chain's, {@code anchored} once every transition has
     * every chain's, {@code none} when only the creation row exists.
     */
    public static String overallAnchorStatus(List<Transition> transitions) {
        String status = ANCHOR_NONE;
        for (Transition t : transitions) {
            String s = t.anchorStatus();
            if (ANCHOR_PENDING.equals(s)) {
                return ANCHOR_PENDING;
            }
            if (ANCHOR_PARTIAL.equals(s)) {
                status = ANCHOR_PARTIAL;
            } else if (ANCHOR_ANCHORED.equals(s) && !ANCHOR_PARTIAL.equals(status)) {
                status = ANCHOR_ANCHORED;
            }
        }
        return status;
    }
}
