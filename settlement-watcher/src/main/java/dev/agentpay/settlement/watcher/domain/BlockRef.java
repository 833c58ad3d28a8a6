package dev.agentpay.settlement.watcher.domain;

/** A block by number and hash. */
public record BlockRef(long number, String hash) {
}
