package dev.agentpay.settlement.escrow.domain;

import java.time.Instant;

/** An escrow command not yet done: PENDING (to send) or SENT (its transaction out). */
public record OpenCommand(String commandId, String chain, String type, String escrowId, String mandateHash, String calldata,
        String state, String txHash, Long nonce, String rawTx, int attempts, Instant sentAt) {
}
