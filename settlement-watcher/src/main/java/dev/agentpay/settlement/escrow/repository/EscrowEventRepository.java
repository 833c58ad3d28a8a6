package dev.agentpay.settlement.escrow.repository;

import dev.agentpay.commons.sql.Rows;
import dev.agentpay.commons.sql.Times;
import dev.agentpay.settlement.watcher.domain.EscrowLog;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * The escrow events the watcher published ({@code escrow_event}), kept like detected transfers: news is a new row or
 * one back after a retraction, so re-scanning a range never publishes twice. Runs on the client it is given;
 * {@code WatcherLedger} owns the transactions and writes the outbox events.
 */
@ApplicationScoped
public class EscrowEventRepository {

    /**
     * Stores an escrow event under {@code eventId}; emits true when it is news (a new row, or back after a retraction:
     * then {@code eventId} becomes its published id and it is published).
     */
    public Uni<Boolean> detect(SqlClient tx, EscrowLog l, UUID eventId, Instant now) {
        return tx.preparedQuery("insert into escrow_event (log_id, chain, contract, escrow_id, mandate_hash, kind, tx_hash, log_index,"
                        + " block_number, block_hash, status, published_event_id, detected_at)"
                        + " values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'DETECTED', $11, $12)"
                        + " on conflict (log_id) do update set status = 'DETECTED', block_number = excluded.block_number,"
                        + " block_hash = excluded.block_hash, retracted_at = null,"
                        + " published_event_id = case when escrow_event.status = 'RETRACTED' then excluded.published_event_id"
                        + " else escrow_event.published_event_id end"
                        + " where escrow_event.status = 'RETRACTED' or escrow_event.block_hash is distinct from excluded.block_hash"
                        + " returning (xmax = 0) as inserted, (select status from escrow_event e where e.log_id = $1) as previous")
                .execute(Tuple.tuple().addString(l.id()).addString(l.chain()).addString(l.contract()).addString(l.escrowId())
                        .addString(l.mandateHash()).addString(l.event().kind().name()).addString(l.txHash()).addInteger(l.logIndex())
                        .addLong(l.block()).addString(l.blockHash()).addUUID(eventId).addOffsetDateTime(Times.db(now)))
                .map(rs -> {
                    if (rs.size() == 0) {
                        return false;
                    }
                    Row r = rs.iterator().next();
                    // "previous" is read from the statement's snapshot: the row's status before this update
                    return Boolean.TRUE.equals(r.getBoolean("inserted")) || "RETRACTED".equals(r.getString("previous"));
                });
    }

    /** Retracts a published escrow event; emits the id it was published under when it was live, else null. */
    public Uni<UUID> retract(SqlClient tx, String logId, Instant now) {
        return tx.preparedQuery("update escrow_event set status = 'RETRACTED', retracted_at = $2"
                        + " where log_id = $1 and status = 'DETECTED' returning published_event_id")
                .execute(Tuple.of(logId, Times.db(now)))
                .map(rs -> Rows.firstOrNull(rs, r -> r.getUUID(0)));
    }

    /** Published, not retracted escrow events of a chain above a height (identity only). */
    public Uni<List<EscrowLog>> liveAbove(SqlClient c, String chain, long block) {
        return c.preparedQuery("select chain, contract, tx_hash, log_index, block_number, block_hash, escrow_id, mandate_hash"
                        + " from escrow_event where chain = $1 and status = 'DETECTED' and block_number > $2")
                .execute(Tuple.of(chain, block))
                .map(rs -> Rows.list(rs, r -> new EscrowLog(r.getString(0), r.getString(1), r.getString(2), r.getInteger(3),
                        r.getLong(4), r.getString(5), r.getString(6), r.getString(7), null, null)));
    }
}
