package dev.agentpay.settlement.sweep.repository;

import dev.agentpay.settlement.sweep.domain.SweepBatch;
import dev.agentpay.commons.sql.Rows;
import dev.agentpay.commons.sql.Times;
import dev.agentpay.settlement.sweep.domain.SweepTotals;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** The sweep ledger (see the V24 migration): batches, their items, and what each deposit address still holds. */
@ApplicationScoped
public class SweepRepository {

    /** A deposit address holding USDC not swept yet. */
    public record Owed(String address, UUID invoiceId, BigInteger amount) {
    }

    /** Deposit addresses whose received minus swept is positive and that no open batch is sweeping, oldest first. */
    public Uni<List<Owed>> owed(SqlClient c, String chain, int limit) {
        return c.preparedQuery("with received as (select to_address as address, sum(amount) as amount from detected_transfer"
                        + "   where chain = $1 and status = 'DETECTED' group by to_address),"
                        + " swept as (select i.address, sum(i.amount) as amount from sweep_item i join sweep_batch b on b.id = i.batch_id"
                        + "   where i.chain = $1 and b.state = 'CONFIRMED' group by i.address),"
                        + " busy as (select jsonb_array_elements_text(addresses) as address from sweep_batch where chain = $1 and state = 'SENT')"
                        + " select d.address, d.invoice_id, r.amount - coalesce(s.amount, 0) as owed"
                        + " from deposit_address d join received r on r.address = d.address"
                        + " left join swept s on s.address = d.address"
                        + " where d.chain = $1 and d.unsweepable is null and r.amount - coalesce(s.amount, 0) > 0"
                        + " and d.address not in (select address from busy)"
                        + " order by d.seq limit $2")
                .execute(Tuple.of(chain, limit))
                .map(rs -> Rows.list(rs, r -> new Owed(r.getString(0), r.getUUID(1), r.getBigDecimal(2).toBigIntegerExact())));
    }

    /** Takes an address out of sweeping (it is not the factory's): it stays visible as held. */
    public Uni<Void> markUnsweepable(SqlClient c, String chain, String address, String reason) {
        return c.preparedQuery("update deposit_address set unsweepable = $3 where chain = $1 and address = $2")
                .execute(Tuple.of(chain, address, truncate(reason))).replaceWithVoid();
    }

    /** Records a signed sweep before it is broadcast. */
    public Uni<Void> recordSent(SqlClient c, UUID id, String chain, String txHash, long nonce, String rawTx, List<String> addresses, Instant at) {
        return c.preparedQuery("insert into sweep_batch (id, chain, state, tx_hash, nonce, raw_tx, addresses, attempts,"
                        + " created_at, broadcast_at, updated_at) values ($1, $2, 'SENT', $3, $4, $5, $6, 1, $7, $7, $7)")
                .execute(Tuple.tuple(List.of(id, chain, txHash, nonce, rawTx, new JsonArray(new ArrayList<Object>(addresses)), Times.db(at))))
                .replaceWithVoid();
    }

    public Uni<List<SweepBatch>> open(SqlClient c, String chain) {
        return batches(c, "where chain = $1 and state = 'SENT' order by created_at", Tuple.of(chain));
    }

    public Uni<List<SweepBatch>> recent(SqlClient c, int limit) {
        return batches(c, "order by created_at desc limit $1", Tuple.of(limit));
    }

    private Uni<List<SweepBatch>> batches(SqlClient c, String where, Tuple args) {
        return c.preparedQuery("select id, chain, state, tx_hash, nonce, raw_tx, addresses, swept_atomic, attempts, last_error,"
                        + " created_at, broadcast_at from sweep_batch " + where)
                .execute(args)
                .map(rs -> {
                    List<SweepBatch> out = new ArrayList<>();
                    for (Row r : rs) {
                        List<String> addresses = new ArrayList<>();
                        ((JsonArray) r.getValue(6)).forEach(a -> addresses.add((String) a));
                        BigDecimal swept = r.getBigDecimal(7);
                        out.add(new SweepBatch(r.getUUID(0), r.getString(1), r.getString(2), r.getString(3), r.getLong(4), r.getString(5),
                                addresses, swept == null ? null : swept.toBigIntegerExact(), r.getInteger(8), r.getString(9),
                                r.getOffsetDateTime(10).toInstant(), r.getOffsetDateTime(11).toInstant()));
                    }
                    return out;
                });
    }

    /** A confirmed sweep and the block it was mined in. */
    public record Mined(UUID id, String txHash, String rawTx, long blockNumber, String blockHash) {
    }

    /**
     * The sweep was mined (in {@code blockNumber}/{@code blockHash}) and succeeded: its per-address
     * amounts (from the Swept events) join the ledger; {@code tx} must be a transaction (the batch and
     * its items change together).
     */
    public Uni<Boolean> confirm(SqlClient tx, UUID id, String chain, Map<String, BigInteger> sweptByAddress, long blockNumber,
            String blockHash, Instant at) {
        BigInteger total = sweptByAddress.values().stream().reduce(BigInteger.ZERO, BigInteger::add);
        return tx.preparedQuery("update sweep_batch set state = 'CONFIRMED', swept_atomic = $2,"
                        + " updated_at = $3, block_number = $4, block_hash = $5 where id = $1 and state = 'SENT'")
                .execute(Tuple.of(id, new BigDecimal(total), Times.db(at), blockNumber, blockHash))
                .flatMap(rs -> {
                    if (rs.rowCount() == 0) {
                        return Uni.createFrom().item(false); // already confirmed or failed: nothing twice
                    }
                    Uni<Void> items = Uni.createFrom().voidItem();
                    for (var e : sweptByAddress.entrySet()) {
                        items = items.call(() -> tx.preparedQuery("insert into sweep_item (batch_id, chain, address, amount)"
                                        + " values ($1, $2, $3, $4)")
                                .execute(Tuple.of(id, chain, e.getKey(), new BigDecimal(e.getValue()))));
                    }
                    return items.replaceWith(true);
                });
    }

    /** Confirmed sweeps mined at or above {@code fromBlock} (a reorg may still take them out), newest first. */
    public Uni<List<Mined>> minedSince(SqlClient c, String chain, long fromBlock, int limit) {
        return c.preparedQuery("select id, tx_hash, raw_tx, block_number, block_hash from sweep_batch where chain = $1"
                        + " and state = 'CONFIRMED' and block_number >= $2 order by block_number desc limit $3")
                .execute(Tuple.of(chain, fromBlock, limit))
                .map(rs -> {
                    List<Mined> out = new ArrayList<>();
                    for (Row r : rs) {
                        out.add(new Mined(r.getUUID(0), r.getString(1), r.getString(2), r.getLong(3), r.getString(4)));
                    }
                    return out;
                });
    }

    /**
     * A confirmed sweep that a reorg took out of its block: back to SENT (broadcast again now), its amounts
     * out of the ledger (the money is at the deposit addresses again until it is mined again); {@code tx}
     * must be a transaction.
     */
    public Uni<Boolean> reopen(SqlClient tx, UUID id, String reason, Instant at) {
        return tx.preparedQuery("update sweep_batch set state = 'SENT', swept_atomic = null,"
                        + " block_number = null, block_hash = null, attempts = attempts + 1, broadcast_at = $3, last_error = $2,"
                        + " updated_at = $3 where id = $1 and state = 'CONFIRMED'")
                .execute(Tuple.of(id, truncate(reason), Times.db(at)))
                .flatMap(rs -> rs.rowCount() == 0 ? Uni.createFrom().item(false)
                        : tx.preparedQuery("delete from sweep_item where batch_id = $1").execute(Tuple.of(id)).replaceWith(true));
    }

    public Uni<Void> fail(SqlClient c, UUID id, String error, Instant at) {
        return c.preparedQuery("update sweep_batch set state = 'FAILED', last_error = $2, updated_at = $3 where id = $1 and state = 'SENT'")
                .execute(Tuple.of(id, truncate(error), Times.db(at))).replaceWithVoid();
    }

    public Uni<Void> rebroadcast(SqlClient c, UUID id, String error, Instant at) {
        return c.preparedQuery("update sweep_batch set attempts = attempts + 1, broadcast_at = $3, last_error = $2,"
                        + " updated_at = $3 where id = $1 and state = 'SENT'")
                .execute(Tuple.of(id, truncate(error), Times.db(at))).replaceWithVoid();
    }

    public Uni<List<SweepTotals>> totals(SqlClient c) {
        return c.query("select c.chain,"
                        + " coalesce((select sum(t.amount) from detected_transfer t join deposit_address d on d.chain = t.chain"
                        + "   and d.address = t.to_address where t.chain = c.chain and t.status = 'DETECTED'), 0),"
                        + " coalesce((select sum(i.amount) from sweep_item i join sweep_batch b on b.id = i.batch_id"
                        + "   where i.chain = c.chain and b.state = 'CONFIRMED'), 0),"
                        + " (select count(*) from sweep_batch b where b.chain = c.chain and b.state = 'SENT'),"
                        + " (select count(*) from sweep_batch b where b.chain = c.chain and b.state = 'FAILED')"
                        + " from (select distinct chain from deposit_address) c order by c.chain")
                .execute()
                .map(rs -> {
                    List<SweepTotals> out = new ArrayList<>();
                    for (Row r : rs) {
                        BigInteger received = r.getBigDecimal(1).toBigIntegerExact();
                        BigInteger swept = r.getBigDecimal(2).toBigIntegerExact();
                        out.add(new SweepTotals(r.getString(0), received, swept, received.subtract(swept), r.getLong(3), r.getLong(4)));
                    }
                    return out;
                });
    }

    private static String truncate(String s) {
        return s == null ? null : s.length() <= 500 ? s : s.substring(0, 500);
    }

}
