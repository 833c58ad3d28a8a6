package dev.agentpay.settlement.service;

import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.settlement.client.EvmClient;
import dev.agentpay.settlement.config.SettlementConfig;
import dev.agentpay.settlement.domain.BlockRef;
import dev.agentpay.settlement.domain.Checkpoint;
import dev.agentpay.settlement.domain.ScanResult;
import dev.agentpay.settlement.domain.Transfer;
import dev.agentpay.settlement.repository.DepositRepository;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Scans one EVM chain for USDC transfers to the invoices' own deposit addresses, publishing each once it
 * has the configured confirmations. One {@code eth_getLogs} per block range on the USDC {@code Transfer}
 * topic, every log matched against the in-memory set of deposit addresses (learned from
 * {@code invoice.created}, kept in {@code deposit_address}); nothing sent elsewhere (the seller wallet,
 * x402 fees, anyone else) is published. A newly learned address is back-filled from the newest block
 * scanned before its invoice existed, so an address learned late (broker lag) misses nothing. All progress lives in the database, so a restarted watcher resumes exactly
 * where the last committed step ended (catch-up after downtime).
 *
 * <p>Each tick: (1) check that the checkpoint block still has the remembered hash; if not, find the
 * fork point among the remembered blocks, re-read the range above it, retract published transfers that
 * are gone and publish ones that are new; (2) scan from the checkpoint to the confirmed head in
 * {@code eth_getLogs} ranges of at most {@code maxBlockRange} blocks, halving the range when the
 * provider refuses it.
 */
public class EvmScanner {

    private static final Logger LOG = Logger.getLogger(EvmScanner.class);
    private static final Duration DB_TIMEOUT = Duration.ofSeconds(30);
    private static final String SOURCE = "evm-detector";
    /** Addresses back-filled per {@code eth_getLogs} (an OR list in the recipient topic; providers cap its size). */
    private static final int BACKFILL_BATCH = 100;

    private final ChainTable.Entry chain;
    private final EvmClient rpc;
    private final WatcherLedger ledger;
    private final SettlementConfig config;
    private final String token;
    /** Lower-case deposit addresses of this chain; only grows (late and extra payments are still owed). */
    private final Set<String> addresses = new HashSet<>();
    private long lastSeq;
    private int range;

    public EvmScanner(ChainTable.Entry chain, EvmClient rpc, WatcherLedger ledger, SettlementConfig config) {
        this.chain = chain;
        this.rpc = rpc;
        this.ledger = ledger;
        this.config = config;
        this.token = chain.usdcAddress();
        this.range = Math.max(1, chain.maxBlockRange());
    }

    /** How many deposit addresses this scanner matches against. */
    public int watchedAddresses() {
        return addresses.size();
    }

    /** Loads addresses registered since the last tick into the set. */
    private void learnAddresses() {
        while (true) {
            List<DepositRepository.Deposit> fresh = ledger.depositsSince(chain.name(), lastSeq, 10_000).await().atMost(DB_TIMEOUT);
            for (DepositRepository.Deposit d : fresh) {
                addresses.add(d.address());
                lastSeq = Math.max(lastSeq, d.seq());
            }
            if (fresh.size() < 10_000) {
                return;
            }
        }
    }

    /**
     * Back-fills newly learned addresses up to the checkpoint (normally a few blocks, normally nothing found).
     * Only addresses already in the set: one registered between {@link #learnAddresses} and this query
     * would otherwise be back-filled to the checkpoint and marked done, then missed by this tick's scan
     * above the checkpoint (it is not in the set yet), so a payment in those blocks was never seen
     * (FaultIT, 2026-11-25: two polygon payments to addresses registered in the burst after a restart).
     */
    private int backfill(long checkpoint) {
        int published = 0;
        List<DepositRepository.Deposit> todo = ledger.pendingBackfill(chain.name(), lastSeq, BACKFILL_BATCH).await().atMost(DB_TIMEOUT);
        while (!todo.isEmpty()) {
            long from = todo.stream().mapToLong(DepositRepository.Deposit::backfillFrom).min().orElseThrow();
            List<String> to = todo.stream().map(DepositRepository.Deposit::address).toList();
            List<Transfer> found = new ArrayList<>();
            for (long f = from; f <= checkpoint; f += range) {
                found.addAll(rpc.transfersTo(token, to, f, Math.min(checkpoint, f + range - 1)));
            }
            published += ledger.commitBackfill(chain.name(), found, todo.stream().map(DepositRepository.Deposit::seq).toList(), SOURCE)
                    .await().atMost(DB_TIMEOUT);
            if (!found.isEmpty()) {
                LOG.infof("%s: back-fill of %d new address(es) from block %d found %d transfer(s)", chain.name(), to.size(), from, found.size());
            }
            if (todo.size() < BACKFILL_BATCH) {
                break;
            }
            todo = ledger.pendingBackfill(chain.name(), lastSeq, BACKFILL_BATCH).await().atMost(DB_TIMEOUT);
        }
        return published;
    }

    /** The range's transfers whose recipient is a deposit address. */
    private List<Transfer> ours(long from, long to) {
        List<Transfer> out = new ArrayList<>();
        for (Transfer t : rpc.transfers(token, from, to)) {
            if (t.to() != null && addresses.contains(t.to().toLowerCase(Locale.ROOT))) {
                out.add(t);
            }
        }
        return out;
    }

    public String chain() {
        return chain.name();
    }

    /** One tick; returns the number of events published. */
    public int tick() {
        long head = rpc.head();
        long confirmed = head - (chain.confirmations() - 1);
        Checkpoint cp = ledger.checkpoint(chain.name()).await().atMost(DB_TIMEOUT);
        int published = 0;
        if (cp == null) {
            long start = Math.max(-1, confirmed - config.evm().initialLookback());
            BlockRef b = start >= 0 ? rpc.block(start) : new BlockRef(-1, null);
            ledger.commit(new ScanResult(chain.name(), List.of(), List.of(), new Checkpoint(start, b.hash(), null),
                    b.hash() == null ? List.of() : List.of(b), -1), SOURCE, config.evm().rememberedBlocks()).await().atMost(DB_TIMEOUT);
            LOG.infof("%s: first start, scanning from block %d", chain.name(), start + 1);
            cp = new Checkpoint(start, b.hash(), null);
        } else if (cp.blockHash() != null) {
            BlockRef now = rpc.block(cp.block());
            if (now == null || !now.hash().equalsIgnoreCase(cp.blockHash())) {
                learnAddresses();
                published += reorg(cp, confirmed);
                cp = ledger.checkpoint(chain.name()).await().atMost(DB_TIMEOUT);
            }
        }
        learnAddresses();
        published += backfill(cp.block());
        long from = cp.block() + 1;
        while (from <= confirmed) {
            long to = Math.min(confirmed, from + range - 1);
            List<Transfer> found;
            try {
                found = ours(from, to);
            } catch (EvmClient.RpcException e) {
                if (range == 1) {
                    throw e;
                }
                range = Math.max(1, range / 2);
                LOG.warnf("%s: eth_getLogs %d..%d refused (%s); range now %d", chain.name(), from, to, e.getMessage(), range);
                continue;
            }
            BlockRef end = rpc.block(to);
            if (end == null) {
                break; // the head moved back under us: the next tick sees the reorg
            }
            published += ledger.commit(new ScanResult(chain.name(), found, List.of(), new Checkpoint(to, end.hash(), null),
                    List.of(end), -1), SOURCE, config.evm().rememberedBlocks()).await().atMost(DB_TIMEOUT);
            from = to + 1;
            if (range < chain.maxBlockRange()) {
                range = Math.min(chain.maxBlockRange(), range * 2); // recover after a provider hiccup
            }
        }
        return published;
    }

    /** The checkpoint block changed: rewind to the fork point, retract what vanished, publish what is new. */
    private int reorg(Checkpoint cp, long confirmed) {
        List<BlockRef> remembered = ledger.seenBlocks(chain.name(), config.evm().rememberedBlocks()).await().atMost(DB_TIMEOUT);
        long fork = -1;
        String forkHash = null;
        for (BlockRef b : remembered) {
            BlockRef now = rpc.block(b.number());
            if (now != null && now.hash().equalsIgnoreCase(b.hash())) {
                fork = b.number();
                forkHash = b.hash();
                break;
            }
        }
        if (fork < 0 && !remembered.isEmpty()) {
            fork = remembered.get(remembered.size() - 1).number() - 1;
            LOG.errorf("%s: reorg deeper than the %d remembered blocks; rescanning from %d", chain.name(), remembered.size(), fork + 1);
            BlockRef b = fork >= 0 ? rpc.block(fork) : null;
            forkHash = b == null ? null : b.hash();
        }
        long upTo = Math.max(fork, confirmed);
        List<Transfer> found = new ArrayList<>();
        for (long from = fork + 1; from <= upTo; from += range) {
            found.addAll(ours(from, Math.min(upTo, from + range - 1)));
        }
        Set<String> stillThere = new HashSet<>();
        found.forEach(t -> stillThere.add(t.id()));
        List<Transfer> vanished = ledger.liveAbove(chain.name(), fork).await().atMost(DB_TIMEOUT).stream()
                .filter(t -> !stillThere.contains(t.id())).toList();
        BlockRef end = upTo == fork ? new BlockRef(fork, forkHash) : rpc.block(upTo);
        LOG.warnf("%s: reorg below block %d; fork point %d, %d transfer(s) retracted", chain.name(), cp.block(), fork, vanished.size());
        return ledger.commit(new ScanResult(chain.name(), found, vanished, new Checkpoint(end.number(), end.hash(), null),
                end.hash() == null ? List.of() : List.of(end), fork), SOURCE, config.evm().rememberedBlocks()).await().atMost(DB_TIMEOUT);
    }
}
