package dev.agentpay.anchor.anchoring.repository;

import dev.agentpay.commons.sql.Rows;
import dev.agentpay.commons.sql.Times;
import dev.agentpay.anchor.anchoring.domain.AnchorIntent;
import dev.agentpay.anchor.anchoring.domain.OpenTx;
import dev.agentpay.anchor.anchoring.domain.PendingItem;
import dev.agentpay.anchor.anchoring.domain.SentItem;
import dev.agentpay.anchor.anchoring.domain.SignedTx;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.sqlclient.data.Numeric;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/**
 * SQL over the anchor tables (see {@code V2__anchor.sql}). Every method runs on the client it is given: the
 * pool for a single statement, or the caller's transaction; the services decide which (they own transactions).
 */
@ApplicationScoped
public class AnchorRepository {

    /** A receipt row to store: the transition and the log that anchors it. */
    public record ReceiptRow(String transitionId, String mandateId, String mandateHash, String state, long chainId,
            String txHash, long blockNumber, int logIndex) {
    }

    /** Stores intents; a transition id seen before is ignored. Returns how many were new. */
    public Uni<Integer> insertIntents(SqlClient c, List<AnchorIntent> intents) {
        if (intents.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        List<Tuple> rows = new ArrayList<>(intents.size());
        for (AnchorIntent i : intents) {
            rows.add(Tuple.tuple().addString(i.transitionId()).addUUID(i.eventId()).addString(i.mandateId())
                    .addString(i.partnerId()).addString(i.mandateHash()).addString(i.state()).addOffsetDateTime(Times.db(i.eventAt()))
                    .addString(i.traceParent()));
        }
        return c.preparedQuery("insert into anchor_intent (transition_id, event_id, mandate_id,"
                        + " partner_id, mandate_hash, state, event_at, trace_parent, status) values ($1, $2, $3, $4, $5, $6, $7, $8, 'PENDING')"
                        + " on conflict (transition_id) do nothing")
                .executeBatch(rows)
                .map(AnchorRepository::totalRowCount);
    }

    /** The oldest intents waiting for a batch. */
    public Uni<List<PendingItem>> pending(SqlClient c, int limit) {
        return c.preparedQuery("select transition_id, mandate_hash, state from anchor_intent where status = 'PENDING'"
                        + " order by received_at, transition_id limit $1")
                .execute(Tuple.of(limit))
                .map(rs -> Rows.list(rs, r -> new PendingItem(r.getString(0), r.getString(1), r.getString(2))));
    }

    /** Locks these intents if they are all still pending; returns how many are. */
    public Uni<Integer> lockPending(SqlClient c, List<String> transitionIds) {
        return c.preparedQuery("select transition_id from anchor_intent where transition_id = any($1) and status = 'PENDING'"
                        + " for update")
                .execute(Tuple.of(transitionIds.toArray(new String[0])))
                .map(RowSet::size);
    }

    /** Creates the signer's nonce row or moves it forward to {@code atLeast}; returns the stored next nonce. */
    public Uni<Long> reconcileNonce(SqlClient c, String signer, long atLeast) {
        return c.preparedQuery("insert into signer_nonce (signer, next_nonce) values ($1, $2) on conflict (signer) do update"
                        + " set next_nonce = greatest(signer_nonce.next_nonce, excluded.next_nonce), updated_at = now()"
                        + " returning next_nonce")
                .execute(Tuple.of(signer, atLeast))
                .map(rs -> rs.iterator().next().getLong(0));
    }

    public Uni<Long> storedNextNonce(SqlClient c, String signer) {
        return c.preparedQuery("select next_nonce from signer_nonce where signer = $1").execute(Tuple.of(signer))
                .map(rs -> rs.size() == 0 ? -1L : rs.iterator().next().getLong(0));
    }

    /** Locks the signer's nonce row for this transaction and returns the nonce to use. */
    public Uni<Long> lockNextNonce(SqlClient c, String signer) {
        return c.preparedQuery("select next_nonce from signer_nonce where signer = $1 for update").execute(Tuple.of(signer))
                .map(rs -> {
                    if (rs.size() == 0) {
                        throw new IllegalStateException("signer nonce not reconciled yet");
                    }
                    return rs.iterator().next().getLong(0);
                });
    }

    /** Stores the signed transaction, binds the intents to it in array order, and consumes the nonce. */
    public Uni<Void> storeTx(SqlClient c, String signer, SignedTx tx, List<String> transitionIds) {
        return c.preparedQuery("insert into anchor_tx (nonce, signer, tx_hash, raw_tx, item_count, gas_limit, max_fee_wei,"
                        + " priority_wei, status) values ($1, $2, $3, $4, $5, $6, $7, $8, 'SIGNED')")
                .execute(Tuple.tuple().addLong(tx.nonce()).addString(signer).addString(tx.hash()).addString(tx.raw())
                        .addInteger(tx.itemCount()).addLong(tx.gasLimit().longValueExact())
                        .addValue(numeric(tx.maxFeeWei())).addValue(numeric(tx.priorityWei())))
                .chain(() -> c.preparedQuery("update anchor_intent i set status = 'SENT', tx_nonce = $1, batch_index = u.ord - 1"
                                + " from unnest($2::varchar[]) with ordinality as u(id, ord) where i.transition_id = u.id")
                        .execute(Tuple.of(tx.nonce(), transitionIds.toArray(new String[0]))))
                .chain(() -> c.preparedQuery("update signer_nonce set next_nonce = $2, updated_at = now() where signer = $1")
                        .execute(Tuple.of(signer, tx.nonce() + 1)))
                .replaceWithVoid();
    }

    public Uni<Void> markBroadcast(SqlClient c, long nonce) {
        return c.preparedQuery("update anchor_tx set broadcast_at = now() where nonce = $1")
                .execute(Tuple.of(nonce)).replaceWithVoid();
    }

    /** A stored transaction's status and signed bytes. */
    public record StoredTx(long nonce, String status, String hash, String raw) {
    }

    /** Stored transactions with nonces in {@code [from, to)}, lowest first (any status). */
    public Uni<List<StoredTx>> txsBetween(SqlClient c, long from, long to) {
        return c.preparedQuery("select nonce, status, tx_hash, raw_tx from anchor_tx where nonce >= $1 and nonce < $2 order by nonce")
                .execute(Tuple.of(from, to))
                .map(rs -> Rows.list(rs, r -> new StoredTx(r.getLong(0), r.getString(1), r.getString(2), r.getString(3))));
    }

    /** Transactions stored but not yet resolved, lowest nonce first. */
    public Uni<List<OpenTx>> openTxs(SqlClient c, int limit) {
        return c.preparedQuery("select nonce, tx_hash, raw_tx, created_at, broadcast_at from anchor_tx where status = 'SIGNED'"
                        + " order by nonce limit $1")
                .execute(Tuple.of(limit))
                .map(rs -> {
                    List<OpenTx> out = new ArrayList<>(rs.size());
                    for (Row r : rs) {
                        OffsetDateTime b = r.getOffsetDateTime(4);
                        out.add(new OpenTx(r.getLong(0), r.getString(1), r.getString(2), r.getOffsetDateTime(3).toInstant(),
                                b == null ? null : b.toInstant()));
                    }
                    return out;
                });
    }

    /** Locks the intents a still-open transaction carries, in batch order (empty once it is resolved). */
    public Uni<List<SentItem>> lockSentItems(SqlClient c, long nonce) {
        return c.preparedQuery("select i.transition_id, i.mandate_id, i.partner_id, i.mandate_hash, i.state, i.batch_index,"
                        + " i.event_at, i.trace_parent from anchor_tx t join anchor_intent i on i.tx_nonce = t.nonce"
                        + " where t.nonce = $1 and t.status = 'SIGNED' and i.status = 'SENT' order by i.batch_index for update")
                .execute(Tuple.of(nonce))
                .map(rs -> Rows.list(rs, r -> new SentItem(r.getString(0), r.getString(1), r.getString(2), r.getString(3), r.getString(4),
                                r.getInteger(5), r.getOffsetDateTime(6).toInstant(), r.getString(7))));
    }

    public Uni<Void> insertReceipts(SqlClient c, List<ReceiptRow> receipts) {
        List<Tuple> rows = new ArrayList<>(receipts.size());
        for (ReceiptRow r : receipts) {
            rows.add(Tuple.tuple().addString(r.transitionId()).addString(r.mandateId()).addString(r.mandateHash())
                    .addString(r.state()).addLong(r.chainId()).addString(r.txHash()).addLong(r.blockNumber())
                    .addInteger(r.logIndex()));
        }
        return c.preparedQuery("insert into anchor_receipt (transition_id, mandate_id, mandate_hash, state, chain_id, tx_hash,"
                        + " block_number, log_index) values ($1, $2, $3, $4, $5, $6, $7, $8)")
                .executeBatch(rows).replaceWithVoid();
    }

    public Uni<Void> markAnchored(SqlClient c, long nonce, long blockNumber) {
        return c.preparedQuery("update anchor_intent set status = 'ANCHORED' where tx_nonce = $1 and status = 'SENT'")
                .execute(Tuple.of(nonce))
                .chain(() -> c.preparedQuery("update anchor_tx set status = 'CONFIRMED', block_number = $2 where nonce = $1")
                        .execute(Tuple.of(nonce, blockNumber)))
                .replaceWithVoid();
    }

    /** The transaction will never anchor its intents (reverted, or its nonce went to another transaction): re-queue them. */
    public Uni<Void> failTx(SqlClient c, long nonce, String detail) {
        return c.preparedQuery("update anchor_intent set status = 'PENDING', tx_nonce = null, batch_index = null"
                        + " where tx_nonce = $1 and status = 'SENT'")
                .execute(Tuple.of(nonce))
                .chain(() -> c.preparedQuery("update anchor_tx set status = 'FAILED', detail = $2 where nonce = $1")
                        .execute(Tuple.of(nonce, detail)))
                .replaceWithVoid();
    }

    private static int totalRowCount(RowSet<Row> rs) {
        int n = 0;
        for (RowSet<Row> r = rs; r != null; r = r.next()) {
            n += r.rowCount();
        }
        return n;
    }


    private static Numeric numeric(BigInteger v) {
        return Numeric.create(new BigDecimal(v));
    }
}
