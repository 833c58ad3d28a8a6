package dev.agentpay.settlement.watcher.service;

import dev.agentpay.commons.events.ChainTransferEvent;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.outbox.Outbox;
import dev.agentpay.settlement.watcher.domain.BlockRef;
import dev.agentpay.settlement.watcher.domain.Checkpoint;
import dev.agentpay.settlement.watcher.domain.ScanResult;
import dev.agentpay.settlement.watcher.domain.Transfer;
import dev.agentpay.settlement.deposit.repository.DepositRepository;
import dev.agentpay.settlement.deposit.repository.DepositRepository.Deposit;
import dev.agentpay.settlement.deposit.repository.DepositRepository.NewDeposit;
import dev.agentpay.settlement.watcher.repository.WatcherRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;

/**
 * The watcher's state changes and their {@code chain-transfers} events: {@link #commit} writes a scan step
 * and its outbox events in one transaction, and publishes a transfer only when its row is new (or comes
 * back after a retraction), so re-scanning a range never publishes twice. The one owner of the watcher's
 * transactions (the repositories run on the client they are given). Every step's transaction begins with the
 * chain's fencing check ({@link ChainLeases}): a stale instance's step is refused.
 */
@ApplicationScoped
public class WatcherLedger {

    @Inject
    Pool pool;
    @Inject
    WatcherRepository repo;
    @Inject
    DepositRepository deposits;
    @Inject
    Outbox outbox;
    @Inject
    ChainLeases leases;

    public Uni<Checkpoint> checkpoint(String chain) {
        return repo.checkpoint(pool, chain);
    }

    /** Remembered blocks, newest first. */
    public Uni<List<BlockRef>> seenBlocks(String chain, int limit) {
        return repo.seenBlocks(pool, chain, limit);
    }

    /** Published, not retracted transfers above a height. */
    public Uni<List<Transfer>> liveAbove(String chain, long block) {
        return repo.liveAbove(pool, chain, block);
    }

    /** Registers a deposit address once (from {@code invoice.created}); emits whether it was new. */
    public Uni<Boolean> register(NewDeposit d) {
        return deposits.register(pool, d);
    }

    /** Deposit addresses of a chain registered after {@code afterSeq}, in registration order. */
    public Uni<List<Deposit>> depositsSince(String chain, long afterSeq, int limit) {
        return deposits.since(pool, chain, afterSeq, limit);
    }

    /** Deposit addresses whose back-fill is still to do, among those registered up to {@code maxSeq}. */
    public Uni<List<Deposit>> pendingBackfill(String chain, long maxSeq, int limit) {
        return deposits.pendingBackfill(pool, chain, maxSeq, limit);
    }

    /** Commits one scan step; emits how many events it published. */
    public Uni<Integer> commit(ChainLeases.Fence fence, ScanResult step, String source, int rememberedBlocks) {
        Instant now = Instant.now();
        return pool.withTransaction(tx -> {
            Uni<Integer> n = leases.fence(tx, fence).replaceWith(0);
            for (Transfer t : step.vanished()) {
                n = n.flatMap(k -> retract(tx, t, source, now).map(x -> k + x));
            }
            for (Transfer t : step.found()) {
                n = n.flatMap(k -> detect(tx, t, source, now).map(x -> k + x));
            }
            return n
                    .call(() -> step.rewindAbove() < 0 ? Uni.createFrom().voidItem() : repo.forgetAbove(tx, step.chain(), step.rewindAbove()))
                    .call(() -> repo.remember(tx, step.chain(), step.seen(), rememberedBlocks))
                    .call(() -> repo.saveCheckpoint(tx, step.chain(), step.checkpoint(), now));
        });
    }

    /**
     * Commits a back-fill of newly learned deposit addresses: the transfers found to them up to the
     * checkpoint, and the addresses marked done, in one transaction; emits how many events it published.
     */
    public Uni<Integer> commitBackfill(ChainLeases.Fence fence, String chain, List<Transfer> found, List<Long> doneSeqs, String source) {
        Instant now = Instant.now();
        return pool.withTransaction(tx -> {
            Uni<Integer> n = leases.fence(tx, fence).replaceWith(0);
            for (Transfer t : found) {
                n = n.flatMap(k -> detect(tx, t, source, now).map(x -> k + x));
            }
            return n.call(() -> repo.backfilled(tx, chain, doneSeqs));
        });
    }

    private Uni<Integer> detect(SqlClient tx, Transfer t, String source, Instant now) {
        return repo.detect(tx, t, now).flatMap(news -> news
                ? outbox.append(tx, event(ChainTransferEvent.DETECTED, t, source, now)).replaceWith(1)
                : Uni.createFrom().item(0));
    }

    private Uni<Integer> retract(SqlClient tx, Transfer t, String source, Instant now) {
        return repo.retract(tx, t, now).flatMap(live -> live
                ? outbox.append(tx, event(ChainTransferEvent.RETRACTED, t, source, now)).replaceWith(1)
                : Uni.createFrom().item(0));
    }

    static ChainTransferEvent event(String type, Transfer t, String source, Instant now) {
        return new ChainTransferEvent(EventHeader.of(type, t.id(), null, now, ChainTransferEvent.SCHEMA_VERSION),
                t.chain(), t.txHash(), t.index(), t.block(), t.blockHash(), t.from(), t.to(), t.amount(), t.token(),
                t.memo(), source);
    }
}
