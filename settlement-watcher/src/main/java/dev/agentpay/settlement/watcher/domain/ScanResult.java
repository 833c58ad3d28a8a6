package dev.agentpay.settlement.watcher.domain;

import java.util.List;

/**
 * What one scan step commits for a chain, atomically: transfers found, transfers that vanished in a
 * reorg, and the new checkpoint.
 *
 * @param found       transfers seen in the scanned range (published unless already published)
 * @param vanished    published transfers no longer on the chain (retracted)
 * @param rewindAbove forget remembered blocks above this height (a reorg's fork point), or -1
 * @param escrowFound    events of the chain's MandateEscrow in the scanned range (published unless already published)
 * @param escrowVanished published escrow events no longer on the chain (rolled back)
 */
public record ScanResult(String chain, List<Transfer> found, List<Transfer> vanished, Checkpoint checkpoint,
        List<BlockRef> seen, long rewindAbove, List<EscrowLog> escrowFound, List<EscrowLog> escrowVanished) {

    /** A step with no escrow events (Solana; EVM chains without an escrow contract). */
    public ScanResult(String chain, List<Transfer> found, List<Transfer> vanished, Checkpoint checkpoint, List<BlockRef> seen,
            long rewindAbove) {
        this(chain, found, vanished, checkpoint, seen, rewindAbove, List.of(), List.of());
    }
}
