package dev.agentpay.settlement.watcher.repository;

import dev.agentpay.commons.sql.Rows;
import dev.agentpay.commons.sql.Times;
import dev.agentpay.settlement.watcher.domain.BlockRef;
import dev.agentpay.settlement.watcher.domain.Checkpoint;
import dev.agentpay.settlement.watcher.domain.Transfer;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * The watcher's state: checkpoints, remembered blocks, detected transfers. Every method runs on the client
 * it is given (the pool, or the caller's transaction); {@code WatcherLedger} owns the transactions and
 * writes the outbox events.
 */
@ApplicationScoped
public class WatcherRepository {

    public Uni<Checkpoint> checkpoint(SqlClient c, String chain) {
        return c.preparedQuery("select block_number, block_hash, cursor from chain_checkpoint where chain = $1")
                .execute(Tuple.of(chain))
                .map(rs -> Rows.firstOrNull(rs, r -> new Checkpoint(r.getLong(0), r.getString(1), r.getString(2))));
    }

    /** Remembered blocks, newest first. */
    public Uni<List<BlockRef>> seenBlocks(SqlClient c, String chain, int limit) {
        return c.preparedQuery("select block_number, block_hash from seen_block where chain = $1"
                        + " order by block_number desc limit $2")
                .execute(Tuple.of(chain, limit))
                .map(rs -> Rows.list(rs, r -> new BlockRef(r.getLong(0), r.getString(1))));
    }

    /** Published, not retracted transfers above a height. */
    public Uni<List<Transfer>> liveAbove(SqlClient c, String chain, long block) {
        return c.preparedQuery("select chain, tx_hash, log_index, block_number, block_hash, from_address, to_address,"
                        + " amount, token, memo from detected_transfer where chain = $1 and status = 'DETECTED'"
                        + " and block_number > $2")
                .execute(Tuple.of(chain, block))
                .map(rs -> Rows.list(rs, r -> new Transfer(r.getString(0), r.getString(1), r.getInteger(2), r.getLong(3),
                            r.getString(4), r.getString(5), r.getString(6), r.getBigDecimal(7).toBigIntegerExact(),
                            r.getString(8), r.getString(9))));
    }

    /** Forgets remembered blocks above a height (a reorg rewound past them). */
    public Uni<Void> forgetAbove(SqlClient tx, String chain, long block) {
        return tx.preparedQuery("delete from seen_block where chain = $1 and block_number > $2")
                .execute(Tuple.of(chain, block)).replaceWithVoid();
    }

    public Uni<Void> saveCheckpoint(SqlClient tx, String chain, Checkpoint cp, Instant now) {
        return tx.preparedQuery("insert into chain_checkpoint (chain, block_number, block_hash, cursor, updated_at)"
                        + " values ($1, $2, $3, $4, $5) on conflict (chain) do update set block_number = excluded.block_number,"
                        + " block_hash = excluded.block_hash, cursor = excluded.cursor, updated_at = excluded.updated_at")
                .execute(Tuple.of(chain, cp.block(), cp.blockHash(), cp.cursor(), Times.db(now)))
                .replaceWithVoid();
    }

    /** Marks deposit addresses back-filled. */
    public Uni<Void> backfilled(SqlClient tx, String chain, List<Long> seqs) {
        return tx.preparedQuery("update deposit_address set backfill_from = null where chain = $1 and seq = any($2)")
                .execute(Tuple.of(chain, seqs.toArray(new Long[0]))).replaceWithVoid();
    }

    public Uni<Void> remember(SqlClient tx, String chain, List<BlockRef> seen, int keep) {
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

    /**
     * Stores a detected transfer; emits true when it is news (a new row, or back after a retraction): only
     * then is it published, so re-scanning a range never publishes twice.
     */
    public Uni<Boolean> detect(SqlClient tx, Transfer t, Instant now) {
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
                        .addOffsetDateTime(Times.db(now)))
                .map(rs -> {
                    if (rs.size() == 0) {
                        return false;
                    }
                    Row r = rs.iterator().next();
                    boolean inserted = Boolean.TRUE.equals(r.getBoolean("inserted"));
                    // "previous" is read from the statement's snapshot: the row's status before this update.
                    boolean wasRetracted = "RETRACTED".equals(r.getString("previous"));
                    // not inserted and not retracted before: the same transfer, now in a re-mined block: nothing to tell
                    return inserted || wasRetracted;
                });
    }

    /** Retracts a published transfer; emits true when it was live (then its retraction is published). */
    public Uni<Boolean> retract(SqlClient tx, Transfer t, Instant now) {
        return tx.preparedQuery("update detected_transfer set status = 'RETRACTED', retracted_at = $2"
                        + " where transfer_id = $1 and status = 'DETECTED'")
                .execute(Tuple.of(t.id(), Times.db(now)))
                .map(rs -> rs.rowCount() == 1);
    }

}
