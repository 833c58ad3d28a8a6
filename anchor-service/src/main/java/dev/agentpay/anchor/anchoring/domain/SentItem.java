package dev.agentpay.anchor.anchoring.domain;

import java.time.Instant;

/**
 * An intent carried by a transaction at position {@code batchIndex} (so it is that transaction's i-th log);
 * {@code traceParent} is the trace of its mandate event.
 */
public record SentItem(String transitionId, String mandateId, String partnerId, String mandateHash, String state,
        int batchIndex, Instant eventAt, String traceParent) {
}
