package dev.agentpay.settlement.watcher.domain;

import java.util.List;

/**
 * What one scan step commits for a chain, atomically: transfers found, transfers that vanished in a
 * reorg, and the new checkpoint.
 *
 * @param found       transfers seen in the scanned range (published unless already published)
 * @param vanished    published transfers no longer on the chain (retracted)
 * @param rewindAbove forget remembered blocks above this height (a reorg's fork point), or -1
 */
public record ScanResult(String chain, List<Transfer> found, List<Transfer> vanished, Checkpoint checkpoint,
        List<BlockRef> seen, long rewindAbove) {
}
