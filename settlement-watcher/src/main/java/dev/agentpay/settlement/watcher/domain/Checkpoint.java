package dev.agentpay.settlement.watcher.domain;

/** How far a chain has been published: the last block (EVM) or the newest signature (Solana, {@code cursor}). */
public record Checkpoint(long block, String blockHash, String cursor) {
}
