package dev.agentpay.mandate.dispute.domain;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * One piece of evidence in a dispute, with its SHA-256 and the transition row that anchors it (its anchor fields
 * are those of that row: null until anchor-service's receipt is recorded).
 */
public record Evidence(
        String id,
        String mandateId,
        int seq,
        String party,
        String text,
        List<String> links,
        String sha256,
        String submittedBy,
        UUID transitionId,
        Instant createdAt,
        String anchorTxHash,
        Long anchorChainId,
        Long anchorBlockNumber,
        Integer anchorLogIndex) {
}
