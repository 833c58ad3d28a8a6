package dev.agentpay.settlement.sweep.domain;

import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** A sweep transaction as recorded. */
public record SweepBatch(UUID id, String chain, String state, String txHash, long nonce, String rawTx, List<String> addresses,
        BigInteger swept, int attempts, String lastError, Instant createdAt, Instant broadcastAt) {
}
