package dev.agentpay.settlement.watcher.service;

import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.settlement.client.EvmClient;
import dev.agentpay.settlement.config.SettlementConfig;
import dev.agentpay.settlement.deposit.domain.Deposit;
import dev.agentpay.settlement.watcher.domain.BlockRef;
import dev.agentpay.settlement.watcher.domain.Checkpoint;
import dev.agentpay.settlement.watcher.domain.EscrowLog;
import dev.agentpay.settlement.watcher.domain.ScanResult;
import dev.agentpay.settlement.watcher.domain.Transfer;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
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
 *
 * <p>A tick is one {@link Uni} pipeline: every RPC call and database step is non-blocking, each step
 * starting when the one before it answered (the steps depend on each other), so no thread waits for a
 * chain. Ticks of one chain never overlap (the supervisor runs them one at a time).
 */
public class EvmScanner extends ChainScanner<EvmClient> {

    private static final Logger LOG = Logger.getLogger(EvmScanner.class);
    private static final String SOURCE = "evm-detector";
    /** Addresses back-filled per {@code eth_getLogs} (an OR list in the recipient topic; providers cap its size). */
    private static final int BACKFILL_BATCH = 100;
    /** Deposit addresses loaded per query. */
    private static final int LOAD_BATCH = 10_000;

    private final String token;
    /** The chain's MandateEscrow (lower case), or null: its events are read in the same ranges as the transfers. */
    private final String escrow;
    /** Lower-case deposit addresses of this chain; only grows (late and extra payments are still owed). */
    private final Set<String> addresses = ConcurrentHashMap.newKeySet();
    private volatile long lastSeq;
    private volatile int range;

    public EvmScanner(ChainTable.Entry chain, EvmClient rpc, WatcherLedger ledger, SettlementConfig config) {
        super(chain, rpc, ledger, config);
        this.token = chain.usdcAddress();
        this.escrow = chain.escrowAddress().map(a -> a.toLowerCase(Locale.ROOT)).orElse(null);
        this.range = Math.max(1, chain.maxBlockRange());
    }

    /** How many deposit addresses this scanner matches against. */
    public int watchedAddresses() {
        return addresses.size();
    }

    /** Loads addresses registered since the last tick into the set. */
    private Uni<Void> learnAddresses() {
        return Loops.whileMore(() -> ledger.depositsSince(chain.name(), lastSeq, LOAD_BATCH).map(fresh -> {
            for (Deposit d : fresh) {
                addresses.add(d.address());
                lastSeq = Math.max(lastSeq, d.seq());
            }
            return fresh.size() == LOAD_BATCH;
        }));
    }

    /**
     * Back-fills newly learned addresses up to the checkpoint (normally a few blocks, normally nothing found).
     * Only addresses already in the set: one registered between {@link #learnAddresses} and this query
     * would otherwise be back-filled to the checkpoint and marked done, then missed by this tick's scan
     * above the checkpoint (it is not in the set yet), so a payment in those blocks was never seen
     * (FaultIT, 2026-11-25: two polygon payments to addresses registered in the burst after a restart).
     */
    private Uni<Integer> backfill(long checkpoint) {
        AtomicInteger published = new AtomicInteger();
        return Loops.whileMore(() -> ledger.pendingBackfill(chain.name(), lastSeq, BACKFILL_BATCH).flatMap(todo -> {
            if (todo.isEmpty()) {
                return Uni.createFrom().item(false);
            }
            long from = todo.stream().mapToLong(Deposit::backfillFrom).min().orElseThrow();
            List<String> to = todo.stream().map(Deposit::address).toList();
            return collect(from, checkpoint, (f, t) -> rpc.transfersTo(token, to, f, t))
                    .flatMap(found -> ledger.commitBackfill(fence(), chain.name(), found, todo.stream().map(Deposit::seq).toList(), SOURCE)
                            .map(n -> {
                                published.addAndGet(n);
                                if (!found.isEmpty()) {
                                    LOG.infof("%s: back-fill of %d new address(es) from block %d found %d transfer(s)",
                                            chain.name(), to.size(), from, found.size());
                                }
                                return todo.size() == BACKFILL_BATCH;
                            }));
        })).map(x -> published.get());
    }

    /** One range query. */
    private interface RangeQuery<T> {
        Uni<List<T>> query(long from, long to);
    }

    /** Everything {@code query} finds in {@code [from, upTo]}, one range of {@code range} blocks after another. */
    private <T> Uni<List<T>> collect(long from, long upTo, RangeQuery<T> query) {
        List<T> all = new ArrayList<>();
        AtomicLong next = new AtomicLong(from);
        return Loops.whileMore(() -> {
            long f = next.get();
            if (f > upTo) {
                return Uni.createFrom().item(false);
            }
            long t = Math.min(upTo, f + range - 1);
            return query.query(f, t).map(found -> {
                all.addAll(found);
                next.set(t + 1);
                return true;
            });
        }).map(x -> all);
    }

    /** Every escrow event in {@code [from, upTo]}, one range of {@code range} blocks after another. */
    private Uni<List<EscrowLog>> collectEscrow(long from, long upTo) {
        if (escrow == null) {
            return Uni.createFrom().item(List.of());
        }
        return collect(from, upTo, this::escrowEvents);
    }

    /** The range's transfers whose recipient is a deposit address. */
    private Uni<List<Transfer>> ours(long from, long to) {
        return rpc.transfers(token, from, to).map(all -> {
            List<Transfer> out = new ArrayList<>();
            for (Transfer t : all) {
                if (t.to() != null && addresses.contains(t.to().toLowerCase(Locale.ROOT))) {
                    out.add(t);
                }
            }
            return out;
        });
    }

    /** The range's escrow events (none without an escrow contract), each with the escrow's totals at its block. */
    private Uni<List<EscrowLog>> escrowEvents(long from, long to) {
        return escrow == null ? Uni.createFrom().item(List.of()) : rpc.escrowLogs(escrow, from, to);
    }

    @Override
    public Uni<Integer> tick() {
        return rpc.head().flatMap(head -> {
            long confirmed = head - (chain.confirmations() - 1);
            return ledger.checkpoint(chain.name())
                    .flatMap(cp -> cp == null ? firstStart(confirmed) : checkReorg(cp, confirmed))
                    .flatMap(start -> learnAddresses()
                            .flatMap(x -> backfill(start.checkpoint().block()))
                            .flatMap(n -> scan(start.checkpoint().block() + 1, confirmed).map(m -> start.published() + n + m)));
        });
    }

    /** Where a tick's scan starts, and what its reorg handling published. */
    private record Start(Checkpoint checkpoint, int published) {
    }

    private Uni<Start> firstStart(long confirmed) {
        long start = Math.max(-1, confirmed - config.evm().initialLookback());
        Uni<BlockRef> first = start >= 0 ? rpc.block(start) : Uni.createFrom().item(new BlockRef(-1, null));
        return first.flatMap(b -> {
            Checkpoint cp = new Checkpoint(start, b.hash(), null);
            return ledger.commit(fence(), new ScanResult(chain.name(), List.of(), List.of(), cp,
                            b.hash() == null ? List.of() : List.of(b), -1), SOURCE, config.evm().rememberedBlocks())
                    .invoke(() -> LOG.infof("%s: first start, scanning from block %d", chain.name(), start + 1))
                    .replaceWith(new Start(cp, 0));
        });
    }

    private Uni<Start> checkReorg(Checkpoint cp, long confirmed) {
        if (cp.blockHash() == null) {
            return Uni.createFrom().item(new Start(cp, 0));
        }
        return rpc.block(cp.block()).flatMap(now -> {
            if (now != null && now.hash().equalsIgnoreCase(cp.blockHash())) {
                return Uni.createFrom().item(new Start(cp, 0));
            }
            return learnAddresses()
                    .flatMap(x -> reorg(cp, confirmed))
                    .flatMap(n -> ledger.checkpoint(chain.name()).map(after -> new Start(after, n)));
        });
    }

    /** What one range holds: transfers to deposit addresses and escrow events. */
    private record Found(List<Transfer> transfers, List<EscrowLog> escrows) {
    }

    /** Scans from {@code from} to the confirmed head, one committed range at a time, halving a refused range. */
    private Uni<Integer> scan(long from, long confirmed) {
        AtomicLong next = new AtomicLong(from);
        AtomicInteger published = new AtomicInteger();
        return Loops.whileMore(() -> {
            long f = next.get();
            if (f > confirmed) {
                return Uni.createFrom().item(false);
            }
            long to = Math.min(confirmed, f + range - 1);
            return ours(f, to).flatMap(found -> escrowEvents(f, to).map(escrows -> new Found(found, escrows)))
                    .onItemOrFailure().transformToUni((both, failure) -> {
                if (failure != null) {
                    if (!(failure instanceof EvmClient.RpcException) || range == 1) {
                        return Uni.createFrom().failure(failure);
                    }
                    range = Math.max(1, range / 2);
                    LOG.warnf("%s: eth_getLogs %d..%d refused (%s); range now %d", chain.name(), f, to, failure.getMessage(), range);
                    return Uni.createFrom().item(true);
                }
                return rpc.block(to).flatMap(end -> {
                    if (end == null) {
                        return Uni.createFrom().item(false); // the head moved back under us: the next tick sees the reorg
                    }
                    return ledger.commit(fence(), new ScanResult(chain.name(), both.transfers(), List.of(), new Checkpoint(to, end.hash(), null),
                            List.of(end), -1, both.escrows(), List.of()), SOURCE, config.evm().rememberedBlocks()).map(n -> {
                                published.addAndGet(n);
                                next.set(to + 1);
                                if (range < chain.maxBlockRange()) {
                                    range = Math.min(chain.maxBlockRange(), range * 2); // recover after a provider hiccup
                                }
                                return true;
                            });
                });
            });
        }).map(x -> published.get());
    }

    /** The first remembered block (newest first) the chain still has, or {@code null}. */
    private Uni<BlockRef> forkPoint(List<BlockRef> remembered) {
        AtomicInteger i = new AtomicInteger();
        AtomicReference<BlockRef> fork = new AtomicReference<>();
        return Loops.whileMore(() -> {
            if (i.get() >= remembered.size()) {
                return Uni.createFrom().item(false);
            }
            BlockRef b = remembered.get(i.getAndIncrement());
            return rpc.block(b.number()).map(now -> {
                if (now != null && now.hash().equalsIgnoreCase(b.hash())) {
                    fork.set(b);
                    return false;
                }
                return true;
            });
        }).map(x -> fork.get());
    }

    /** The checkpoint block changed: rewind to the fork point, retract what vanished, publish what is new. */
    private Uni<Integer> reorg(Checkpoint cp, long confirmed) {
        return ledger.seenBlocks(chain.name(), config.evm().rememberedBlocks()).flatMap(remembered -> forkPoint(remembered)
                .flatMap(found -> {
                    if (found != null || remembered.isEmpty()) {
                        return Uni.createFrom().item(found == null ? new BlockRef(-1, null) : found);
                    }
                    long fork = remembered.get(remembered.size() - 1).number() - 1;
                    LOG.errorf("%s: reorg deeper than the %d remembered blocks; rescanning from %d", chain.name(), remembered.size(), fork + 1);
                    return fork >= 0 ? rpc.block(fork).map(b -> new BlockRef(fork, b == null ? null : b.hash()))
                            : Uni.createFrom().item(new BlockRef(fork, null));
                }))
                .flatMap(fork -> {
                    long upTo = Math.max(fork.number(), confirmed);
                    return collect(fork.number() + 1, upTo, this::ours).flatMap(found -> collectEscrow(fork.number() + 1, upTo).flatMap(escrows -> {
                        Set<String> stillThere = new HashSet<>();
                        found.forEach(t -> stillThere.add(t.id()));
                        escrows.forEach(l -> stillThere.add(l.id()));
                        Uni<BlockRef> end = upTo == fork.number() ? Uni.createFrom().item(fork) : rpc.block(upTo);
                        return ledger.liveAbove(chain.name(), fork.number()).flatMap(live -> ledger.liveEscrowAbove(chain.name(), fork.number())
                                .flatMap(liveEscrow -> end.flatMap(e -> {
                            List<Transfer> vanished = live.stream().filter(t -> !stillThere.contains(t.id())).toList();
                            List<EscrowLog> rolledBack = liveEscrow.stream().filter(l -> !stillThere.contains(l.id())).toList();
                            LOG.warnf("%s: reorg below block %d; fork point %d, %d transfer(s) retracted, %d escrow event(s) rolled back",
                                    chain.name(), cp.block(), fork.number(), vanished.size(), rolledBack.size());
                            return ledger.commit(fence(), new ScanResult(chain.name(), found, vanished, new Checkpoint(e.number(), e.hash(), null),
                                    e.hash() == null ? List.of() : List.of(e), fork.number(), escrows, rolledBack), SOURCE,
                                    config.evm().rememberedBlocks());
                        })));
                    }));
                });
    }
}
