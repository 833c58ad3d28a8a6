package dev.agentpay.anchor.anchoring.repository;

import dev.agentpay.commons.sql.Rows;
import dev.agentpay.commons.sql.Times;
import dev.agentpay.anchor.anchoring.domain.AnchorIntent;
import dev.agentpay.anchor.anchoring.domain.OpenTx;
import dev.agentpay.anchor.anchoring.domain.PendingItem;
import dev.agentpay.anchor.anchoring.domain.Rotation;
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
            String txHash, long blockNumber, int logIndex, String signer) {
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
        return storeTx(c, signer, tx, OpenTx.ANCHOR)
                .chain(() -> c.preparedQuery("update anchor_intent i set status = 'SENT', tx_signer = $3, tx_nonce = $1,"
                                + " batch_index = u.ord - 1"
                                + " from unnest($2::varchar[]) with ordinality as u(id, ord) where i.transition_id = u.id")
                        .execute(Tuple.of(tx.nonce(), transitionIds.toArray(new String[0]), signer)))
                .replaceWithVoid();
    }

    /** Stores a signed transaction of {@code kind} (a rotation's AUTHORISE or RETIRE carries no intents) and consumes the nonce. */
    public Uni<Void> storeTx(SqlClient c, String signer, SignedTx tx, String kind) {
        return c.preparedQuery("insert into anchor_tx (nonce, signer, tx_hash, raw_tx, item_count, gas_limit, max_fee_wei,"
                        + " priority_wei, status, kind) values ($1, $2, $3, $4, $5, $6, $7, $8, 'SIGNED', $9)")
                .execute(Tuple.tuple().addLong(tx.nonce()).addString(signer).addString(tx.hash()).addString(tx.raw())
                        .addInteger(tx.itemCount()).addLong(tx.gasLimit().longValueExact())
                        .addValue(numeric(tx.maxFeeWei())).addValue(numeric(tx.priorityWei())).addString(kind))
                .chain(() -> c.preparedQuery("update signer_nonce set next_nonce = $2, updated_at = now() where signer = $1")
                        .execute(Tuple.of(signer, tx.nonce() + 1)))
                .replaceWithVoid();
    }

    public Uni<Void> markBroadcast(SqlClient c, String txHash) {
        return c.preparedQuery("update anchor_tx set broadcast_at = now() where tx_hash = $1")
                .execute(Tuple.of(txHash)).replaceWithVoid();
    }

    /** A stored transaction's status and signed bytes. */
    public record StoredTx(long nonce, String status, String hash, String raw) {
    }

    /** {@code signer}'s stored transactions with nonces in {@code [from, to)}, lowest first (any status). */
    public Uni<List<StoredTx>> txsBetween(SqlClient c, String signer, long from, long to) {
        return c.preparedQuery("select nonce, status, tx_hash, raw_tx from anchor_tx where signer = $3 and nonce >= $1 and nonce < $2"
                        + " order by nonce")
                .execute(Tuple.of(from, to, signer))
                .map(rs -> Rows.list(rs, r -> new StoredTx(r.getLong(0), r.getString(1), r.getString(2), r.getString(3))));
    }

    /** Transactions stored but not yet resolved (of every signer), lowest nonce first; one signer's in nonce order. */
    public Uni<List<OpenTx>> openTxs(SqlClient c, int limit) {
        return c.preparedQuery("select signer, nonce, tx_hash, raw_tx, created_at, broadcast_at, kind from anchor_tx where status = 'SIGNED'"
                        + " order by nonce, signer limit $1")
                .execute(Tuple.of(limit))
                .map(rs -> {
                    List<OpenTx> out = new ArrayList<>(rs.size());
                    for (Row r : rs) {
                        OffsetDateTime b = r.getOffsetDateTime(5);
                        out.add(new OpenTx(r.getString(0), r.getLong(1), r.getString(2), r.getString(3), r.getOffsetDateTime(4).toInstant(),
                                b == null ? null : b.toInstant(), r.getString(6)));
                    }
                    return out;
                });
    }

    /** Whether {@code signer}'s transaction at {@code nonce} is still open (SIGNED), locking it for this transaction. */
    public Uni<Boolean> lockOpenTx(SqlClient c, String signer, long nonce) {
        return c.preparedQuery("select 1 from anchor_tx where signer = $1 and nonce = $2 and status = 'SIGNED' for update")
                .execute(Tuple.of(signer, nonce)).map(rs -> rs.size() > 0);
    }

    /** How many transactions of {@code signer} are stored but unresolved, and the lowest and highest of their nonces. */
    public record OpenCount(long count, Long lowest, Long highest) {
    }

    public Uni<OpenCount> openCount(SqlClient c, String signer) {
        return c.preparedQuery("select count(*), min(nonce), max(nonce) from anchor_tx where signer = $1 and status = 'SIGNED'")
                .execute(Tuple.of(signer))
                .map(rs -> {
                    Row r = rs.iterator().next();
                    return new OpenCount(r.getLong(0), r.getLong(1), r.getLong(2));
                });
    }

    /** The status and block of {@code signer}'s transaction at {@code nonce} (null when none is stored). */
    public record TxState(String status, String hash, Long blockNumber) {
    }

    public Uni<TxState> txState(SqlClient c, String signer, long nonce) {
        return c.preparedQuery("select status, tx_hash, block_number from anchor_tx where signer = $1 and nonce = $2")
                .execute(Tuple.of(signer, nonce))
                .map(rs -> rs.size() == 0 ? null : new TxState(rs.iterator().next().getString(0), rs.iterator().next().getString(1),
                        rs.iterator().next().getLong(2)));
    }

    /** Locks the intents a still-open transaction carries, in batch order (empty once it is resolved). */
    public Uni<List<SentItem>> lockSentItems(SqlClient c, String signer, long nonce) {
        return c.preparedQuery("select i.transition_id, i.mandate_id, i.partner_id, i.mandate_hash, i.state, i.batch_index,"
                        + " i.event_at, i.trace_parent from anchor_tx t join anchor_intent i on i.tx_signer = t.signer and i.tx_nonce = t.nonce"
                        + " where t.signer = $1 and t.nonce = $2 and t.status = 'SIGNED' and i.status = 'SENT' order by i.batch_index for update")
                .execute(Tuple.of(signer, nonce))
                .map(rs -> Rows.list(rs, r -> new SentItem(r.getString(0), r.getString(1), r.getString(2), r.getString(3), r.getString(4),
                                r.getInteger(5), r.getOffsetDateTime(6).toInstant(), r.getString(7))));
    }

    public Uni<Void> insertReceipts(SqlClient c, List<ReceiptRow> receipts) {
        List<Tuple> rows = new ArrayList<>(receipts.size());
        for (ReceiptRow r : receipts) {
            rows.add(Tuple.tuple().addString(r.transitionId()).addString(r.mandateId()).addString(r.mandateHash())
                    .addString(r.state()).addLong(r.chainId()).addString(r.txHash()).addLong(r.blockNumber())
                    .addInteger(r.logIndex()).addString(r.signer()));
        }
        return c.preparedQuery("insert into anchor_receipt (transition_id, mandate_id, mandate_hash, state, chain_id, tx_hash,"
                        + " block_number, log_index, signer) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)")
                .executeBatch(rows).replaceWithVoid();
    }

    public Uni<Void> markAnchored(SqlClient c, String signer, long nonce, long blockNumber) {
        return c.preparedQuery("update anchor_intent set status = 'ANCHORED' where tx_signer = $1 and tx_nonce = $2 and status = 'SENT'")
                .execute(Tuple.of(signer, nonce))
                .chain(() -> c.preparedQuery("update anchor_tx set status = 'CONFIRMED', block_number = $3 where signer = $1 and nonce = $2")
                        .execute(Tuple.of(signer, nonce, blockNumber)))
                .replaceWithVoid();
    }

    /** The transaction will never anchor its intents (reverted, or its nonce went to another transaction): re-queue them. */
    public Uni<Void> failTx(SqlClient c, String signer, long nonce, String detail) {
        return c.preparedQuery("update anchor_intent set status = 'PENDING', tx_signer = null, tx_nonce = null, batch_index = null"
                        + " where tx_signer = $1 and tx_nonce = $2 and status = 'SENT'")
                .execute(Tuple.of(signer, nonce))
                .chain(() -> c.preparedQuery("update anchor_tx set status = 'FAILED', detail = $3 where signer = $1 and nonce = $2")
                        .execute(Tuple.of(signer, nonce, detail)))
                .replaceWithVoid();
    }

    // ---- signer rotation (table anchor_rotation) ----

    private static final String ROTATION_COLUMNS = "id, from_signer, to_signer, chain_id, contract, status, requested_at,"
            + " authorise_nonce, authorised_tx, authorised_block, switched_at, retire_nonce, retired_tx, retired_block, done_at";

    /** The rotation not yet DONE, or null; locked for this transaction when {@code lock}. */
    public Uni<Rotation> openRotation(SqlClient c, boolean lock) {
        return c.preparedQuery("select " + ROTATION_COLUMNS + " from anchor_rotation where status <> 'DONE'" + (lock ? " for update" : ""))
                .execute().map(rs -> rs.size() == 0 ? null : rotation(rs.iterator().next()));
    }

    /** The latest finished rotation, or null (its {@code toSigner} signs when none is open). */
    public Uni<Rotation> lastDoneRotation(SqlClient c) {
        return c.preparedQuery("select " + ROTATION_COLUMNS + " from anchor_rotation where status = 'DONE' order by id desc limit 1")
                .execute().map(rs -> rs.size() == 0 ? null : rotation(rs.iterator().next()));
    }

    /** Every rotation, oldest first. */
    public Uni<List<Rotation>> rotations(SqlClient c) {
        return c.preparedQuery("select " + ROTATION_COLUMNS + " from anchor_rotation order by id").execute()
                .map(rs -> Rows.list(rs, AnchorRepository::rotation));
    }

    /** Whether {@code signer} was ever the outgoing signer of a rotation (a retired key is never used again). */
    public Uni<Boolean> everRotatedOut(SqlClient c, String signer) {
        return c.preparedQuery("select 1 from anchor_rotation where from_signer = $1 limit 1").execute(Tuple.of(signer))
                .map(rs -> rs.size() > 0);
    }

    /** Opens a rotation; null when another one is open (the unique index on open rotations). */
    public Uni<Rotation> insertRotation(SqlClient c, String from, String to, long chainId, String contract) {
        return c.preparedQuery("insert into anchor_rotation (from_signer, to_signer, chain_id, contract, status)"
                        + " values ($1, $2, $3, $4, 'AUTHORISING') on conflict do nothing returning " + ROTATION_COLUMNS)
                .execute(Tuple.of(from, to, chainId, contract))
                .map(rs -> rs.size() == 0 ? null : rotation(rs.iterator().next()));
    }

    public Uni<Void> rotationAuthoriseSigned(SqlClient c, long id, Long nonce) {
        return c.preparedQuery("update anchor_rotation set authorise_nonce = $2 where id = $1").execute(Tuple.of(id, nonce)).replaceWithVoid();
    }

    public Uni<Void> rotationSwitched(SqlClient c, long id, String tx, long block) {
        return c.preparedQuery("update anchor_rotation set status = 'DRAINING', authorised_tx = $2, authorised_block = $3, switched_at = now()"
                        + " where id = $1 and status = 'AUTHORISING'").execute(Tuple.of(id, tx, block)).replaceWithVoid();
    }

    public Uni<Void> rotationRetireSigned(SqlClient c, long id, Long nonce) {
        return c.preparedQuery("update anchor_rotation set status = case when $2::bigint is null then 'DRAINING' else 'RETIRING' end,"
                        + " retire_nonce = $2::bigint where id = $1").execute(Tuple.of(id, nonce)).replaceWithVoid();
    }

    public Uni<Void> rotationDone(SqlClient c, long id, String tx, long block) {
        return c.preparedQuery("update anchor_rotation set status = 'DONE', retired_tx = $2, retired_block = $3, done_at = now()"
                        + " where id = $1 and status = 'RETIRING'").execute(Tuple.of(id, tx, block)).replaceWithVoid();
    }

    private static Rotation rotation(Row r) {
        return new Rotation(r.getLong(0), r.getString(1), r.getString(2), r.getLong(3), r.getString(4), r.getString(5),
                instantOrNull(r.getOffsetDateTime(6)), r.getLong(7), r.getString(8), r.getLong(9), instantOrNull(r.getOffsetDateTime(10)),
                r.getLong(11), r.getString(12), r.getLong(13), instantOrNull(r.getOffsetDateTime(14)));
    }

    private static java.time.Instant instantOrNull(OffsetDateTime t) {
        return t == null ? null : t.toInstant();
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
