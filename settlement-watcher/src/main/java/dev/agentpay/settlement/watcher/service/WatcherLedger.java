package dev.agentpay.settlement.watcher.service;

import dev.agentpay.commons.chains.escrow.MandateEscrowAbi;
import dev.agentpay.commons.events.ChainTransferEvent;
import dev.agentpay.commons.events.EscrowEvent;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.outbox.Outbox;
import dev.agentpay.settlement.watcher.domain.BlockRef;
import dev.agentpay.settlement.escrow.repository.EscrowEventRepository;
import dev.agentpay.settlement.watcher.domain.Checkpoint;
import dev.agentpay.settlement.watcher.domain.EscrowLog;
import dev.agentpay.settlement.watcher.domain.ScanResult;
import dev.agentpay.settlement.watcher.domain.Transfer;
import dev.agentpay.settlement.deposit.repository.DepositRepository;
import dev.agentpay.settlement.deposit.domain.Deposit;
import dev.agentpay.settlement.deposit.domain.NewDeposit;
import dev.agentpay.settlement.watcher.repository.WatcherRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

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
    @Inject
    EscrowEventRepository escrows;

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

    /** Published, not rolled back escrow events above a height (identity only). */
    public Uni<List<EscrowLog>> liveEscrowAbove(String chain, long block) {
        return escrows.liveAbove(pool, chain, block);
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
            for (EscrowLog l : step.escrowVanished()) {
                n = n.flatMap(k -> rollBack(tx, l, now).map(x -> k + x));
            }
            for (EscrowLog l : step.escrowFound()) {
                n = n.flatMap(k -> detectEscrow(tx, l, now).map(x -> k + x));
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

    /** An escrow event at confirmation depth: published on escrow-events when it is news. */
    private Uni<Integer> detectEscrow(SqlClient tx, EscrowLog l, Instant now) {
        UUID id = UUID.randomUUID();
        return escrows.detect(tx, l, id, now).flatMap(news -> news
                ? outbox.append(tx, escrowEvent(id, l.event().kind().eventType(), l, now)).replaceWith(1)
                : Uni.createFrom().item(0));
    }

    /** A published escrow event a reorg removed: escrow.rolled_back names the publication it takes back. */
    private Uni<Integer> rollBack(SqlClient tx, EscrowLog l, Instant now) {
        return escrows.retract(tx, l.id(), now).flatMap(published -> {
            if (published == null) {
                return Uni.createFrom().item(0);
            }
            EscrowEvent e = new EscrowEvent(EventHeader.of(EscrowEvent.ROLLED_BACK, l.mandateHash(), null, now, EscrowEvent.SCHEMA_VERSION),
                    l.chain(), l.contract(), l.escrowId(), l.mandateHash(), l.txHash(), l.logIndex(), l.block(), l.blockHash(),
                    null, null, null, null, null, null, null, null, null, null, null, null, null, published.toString());
            return outbox.append(tx, e).replaceWith(1);
        });
    }

    static EscrowEvent escrowEvent(UUID id, String type, EscrowLog l, Instant now) {
        MandateEscrowAbi.Event ev = l.event();
        MandateEscrowAbi.Totals t = l.totals();
        return new EscrowEvent(new EventHeader(id, type, l.mandateHash(), null, now, EscrowEvent.SCHEMA_VERSION),
                l.chain(), l.contract(), l.escrowId(), l.mandateHash(), l.txHash(), l.logIndex(), l.block(), l.blockHash(),
                text(ev.amount()), ev.ref(), text(ev.toCounterparty()), text(ev.toProposer()),
                ev.funder() != null ? ev.funder() : ev.kind() == MandateEscrowAbi.Kind.REFUNDED ? ev.to() : null,
                ev.counterparty() != null ? ev.counterparty()
                        : ev.kind() == MandateEscrowAbi.Kind.RELEASED || ev.kind() == MandateEscrowAbi.Kind.WITHDRAWN ? ev.to() : null,
                ev.streamStart(), ev.streamEnd(), ev.expiresAt(),
                t == null ? null : new EscrowEvent.Totals(text(t.funded()), text(t.released()), text(t.withdrawn()),
                        text(t.refunded()), text(t.held())),
                t == null ? null : t.state().value(), null, null, null);
    }

    private static String text(BigInteger v) {
        return v == null ? null : v.toString();
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
