package dev.agentpay.anchor.anchoring.domain;

import java.time.Instant;

/** A stored transaction whose receipt is not recorded yet. */
public record OpenTx(long nonce, String hash, String raw, Instant createdAt, Instant broadcastAt) {
}
