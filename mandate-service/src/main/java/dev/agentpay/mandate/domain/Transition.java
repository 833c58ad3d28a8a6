package dev.agentpay.mandate.domain;

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
        String anchorContract) {
}
