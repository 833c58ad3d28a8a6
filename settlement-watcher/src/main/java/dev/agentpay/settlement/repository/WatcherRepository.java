package dev.agentpay.settlement.repository;

import dev.agentpay.commons.events.ChainTransferEvent;
import dev.agentpay.commons.outbox.Outbox;
import dev.agentpay.settlement.domain.BlockRef;
import dev.agentpay.settlement.domain.Checkpoint;
import dev.agentpay.settlement.domain.ScanResult;
import dev.agentpay.settlement.domain.Transfer;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The watcher's state. {@link #commit} writes a scan step and its {@code chain-transfers} outbox events
 * in one transaction, and publishes a transfer only when its row is new (or comes back after a
 * retraction), so re-scanning a range never publishes twice.
 */
@ApplicationScoped
public class WatcherRepository {

    @Inject
    Pool pool;

    @Inject
    Outbox outbox;

    public Uni<Checkpoint> checkpoint(String chain) {
        return pool.preparedQuery("select block_number, block_hash, cursor from chain_checkpoint where chain = $1")
                .execute(Tuple.of(chain))
                .map(rs -> {
                    if (rs.size() == 0) {
                        return null;
                    }
                    Row r = rs.iterator().next();
                    return new Checkpoint(r.getLong(0), r.getString(1), r.getString(2));
                });
    }

    /** Remembered blocks, newest first. */
    public Uni<List<BlockRef>> seenBlocks(String chain, int limit) {
        return pool.preparedQuery("select block_number, block_hash from seen_block where chain = $1"
                        + " order by block_number desc limit $2")
                .execute(Tuple.of(chain, limit))
                .map(rs -> {
                    List<BlockRef> out = new ArrayList<>();
                    rs.forEach(r -> out.add(new BlockRef(r.getLong(0), r.getString(1))));
                    return out;
                });
    }

    /** Published, not retracted transfers above a height. */
    public Uni<List<Transfer>> liveAbove(String chain, long block) {
        return pool.preparedQuery("select chain, tx_hash, log_index, block_number, block_hash, from_address, to_address,"
                        + " amount, token, memo from detected_transfer where chain = $1 and status = 'DETECTED'"
                        + " and block_number > $2")
                .execute(Tuple.of(chain, block))
                .map(rs -> {
                    List<Transfer> out = new ArrayList<>();
                    rs.forEach(r -> out.add(new Transfer(r.getString(0), r.getString(1), r.getInteger(2), r.getLong(3),
                            r.getString(4), r.getString(5), r.getString(6), r.getBigDecimal(7).toBigIntegerExact(),
                            r.getString(8), r.getString(9))));
                    return out;
                });
    }

    /** Commits one scan step; emits how many events it published. */
    public Uni<Integer> commit(ScanResult step, String source, int rememberedBlocks) {
        Instant now = Instant.now();
        return pool.withTransaction(tx -> {
            Uni<Integer> chain = Uni.createFrom().item(0);
            for (Transfer t : step.vanished()) {
                chain = chain.flatMap(n -> retract(tx, t, source, now).map(x -> n + x));
            }
            for (Transfer t : step.found()) {
                chain = chain.flatMap(n -> detect(tx, t, source, now).map(x -> n + x));
            }
            return chain
                    .call(() -> step.rewindAbove() < 0 ? Uni.createFrom().voidItem()
                            : tx.preparedQuery("delete from seen_block where chain = $1 and block_number > $2")
                                    .execute(Tuple.of(step.chain(), step.rewindAbove())).replaceWithVoid())
                    .call(() -> remember(tx, step.chain(), step.seen(), rememberedBlocks))
                    .call(() -> tx.preparedQuery("insert into chain_checkpoint (chain, block_number, block_hash, cursor, updated_at)"
                                    + " values ($1, $2, $3, $4, $5) on conflict (chain) do update set block_number = excluded.block_number,"
                                    + " block_hash = excluded.block_hash, cursor = excluded.cursor, updated_at = excluded.updated_at")
                            .execute(Tuple.of(step.chain(), step.checkpoint().block(), step.checkpoint().blockHash(),
                                    step.checkpoint().cursor(), ts(now))));
        });
    }

    /**
     * Commits a back-fill of newly learned deposit addresses: the transfers found to them up to the
     * checkpoint, and the addresses marked done, in one transaction; emits how many events it published.
     */
    public Uni<Integer> commitBackfill(String chain, List<Transfer> found, List<Long> doneSeqs, String source) {
        Instant now = Instant.now();
        return pool.withTransaction(tx -> {
            Uni<Integer> n = Uni.createFrom().item(0);
            for (Transfer t : found) {
                n = n.flatMap(k -> detect(tx, t, source, now).map(x -> k + x));
            }
            return n.call(() -> tx.preparedQuery("update deposit_address set backfill_from = null where chain = $1 and seq = any($2)")
                    .execute(Tuple.of(chain, doneSeqs.toArray(new Long[0]))));
        });
    }

    private Uni<Void> remember(SqlClient tx, String chain, List<BlockRef> seen, int keep) {
        if (seen.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Uni<Void> u = Uni.createFrom().voidItem();
        for (BlockRef b : seen) {
            u = u.call(() -> tx.preparedQuery("insert into seen_block (chain, block_number, block_hash) values ($1, $2, $3)"
                            + " on conflict (chain, block_number) do update set block_hash = excluded.block_hash, scanned_at = now()")
                    .execute(Tuple.of(chain, b.number(), b.hash())));
        }
        long newest = seen.stream().mapToLong(BlockRef::number).max().orElseThrow();
        return u.call(() -> tx.preparedQuery("delete from seen_block where chain = $1 and block_number < $2")
                .execute(Tuple.of(chain, newest - keep)));
    }

    private Uni<Integer> detect(SqlClient tx, Transfer t, String source, Instant now) {
        return tx.preparedQuery("insert into detected_transfer (transfer_id, chain, tx_hash, log_index, block_number, block_hash,"
                        + " from_address, to_address, token, amount, memo, status, detected_at)"
                        + " values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'DETECTED', $12)"
                        + " on conflict (transfer_id) do update set status = 'DETECTED', block_number = excluded.block_number,"
                        + " block_hash = excluded.block_hash, detected_at = excluded.detected_at, retracted_at = null"
                        + " where detected_transfer.status = 'RETRACTED' or detected_transfer.block_hash is distinct from excluded.block_hash"
                        + " returning (xmax = 0) as inserted, (select status from detected_transfer d where d.transfer_id = $1) as previous")
                .execute(Tuple.tuple().addString(t.id()).addString(t.chain()).addString(t.txHash()).addInteger(t.index())
                        .addLong(t.block()).addString(t.blockHash()).addString(t.from()).addString(t.to())
                        .addString(t.token()).addBigDecimal(new BigDecimal(t.amount())).addString(t.memo())
                        .addOffsetDateTime(ts(now)))
                .flatMap(rs -> {
                    if (rs.size() == 0) {
                        return Uni.createFrom().item(0);
                    }
                    Row r = rs.iterator().next();
                    boolean inserted = Boolean.TRUE.equals(r.getBoolean("inserted"));
                    // "previous" is read from the statement's snapshot: the row's status before this update.
                    boolean wasRetracted = "RETRACTED".equals(r.getString("previous"));
                    if (!inserted && !wasRetracted) {
                        return Uni.createFrom().item(0); // the same transfer, now in a re-mined block: nothing to tell
                    }
                    return outbox.append(tx, event(ChainTransferEvent.DETECTED, t, source, now)).replaceWith(1);
                });
    }

    private Uni<Integer> retract(SqlClient tx, Transfer t, String source, Instant now) {
        return tx.preparedQuery("update detected_transfer set status = 'RETRACTED', retracted_at = $2"
                        + " where transfer_id = $1 and status = 'DETECTED'")
                .execute(Tuple.of(t.id(), ts(now)))
                .flatMap(rs -> rs.rowCount() == 0 ? Uni.createFrom().item(0)
                        : outbox.append(tx, event(ChainTransferEvent.RETRACTED, t, source, now)).replaceWith(1));
    }

    static ChainTransferEvent event(String type, Transfer t, String source, Instant now) {
        return new ChainTransferEvent(UUID.randomUUID(), type, t.id(), null, now, ChainTransferEvent.SCHEMA_VERSION,
                t.chain(), t.txHash(), t.index(), t.block(), t.blockHash(), t.from(), t.to(), t.amount(), t.token(),
                t.memo(), source);
    }

    static OffsetDateTime ts(Instant t) {
        return OffsetDateTime.ofInstant(t, ZoneOffset.UTC);
    }
}
