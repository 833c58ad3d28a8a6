package dev.agentpay.anchor.anchoring.domain;

import java.math.BigInteger;

/** A signed anchor transaction as stored before it is broadcast (a row of {@code anchor_tx}). */
public record SignedTx(long nonce, String hash, String raw, int itemCount, BigInteger gasLimit,
        BigInteger maxFeeWei, BigInteger priorityWei) {
}
