package dev.agentpay.mandate.dispute.domain;

import java.math.BigInteger;
import java.time.Instant;
import java.util.UUID;

/**
 * One dispute of a mandate (a row of {@code mandate_dispute}): why and when it was opened, its deadline, and its
 * resolution once decided ({@code outcome} {@link #ARBITER} or {@link #DEADLINE_REFUND}, the split, the note).
 */
public record DisputeCase(
        String mandateId,
        String partnerId,
        String reason,
        String openedBy,
        Instant openedAt,
        Instant deadlineAt,
        String status,
        String outcome,
        BigInteger toCounterpartyAtomic,
        BigInteger toProposerAtomic,
        String note,
        Instant resolvedAt,
        UUID resolutionTransition) {

    public static final String OPEN = "open";
    public static final String RESOLVED = "resolved";
    /** Decided by the operator's arbiter ({@code POST /admin/v1/disputes/{id}/resolve}). */
    public static final String ARBITER = "arbiter";
    /** Not decided by the deadline: everything held goes back to the funder. */
    public static final String DEADLINE_REFUND = "deadline_refund";

    public boolean open() {
        return OPEN.equals(status);
    }
}
