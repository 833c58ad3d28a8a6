package dev.agentpay.anchor.anchoring.domain;

/** An intent waiting for a batch: what goes into the anchor call. */
public record PendingItem(String transitionId, String mandateHash, String state) {
}
