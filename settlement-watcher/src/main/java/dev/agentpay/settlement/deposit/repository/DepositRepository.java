package dev.agentpay.settlement.deposit.repository;

import dev.agentpay.commons.sql.Rows;
import dev.agentpay.commons.sql.Times;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The invoices' deposit addresses the watcher attributes transfers to. */
@ApplicationScoped
public class DepositRepository {

    /**
     * Clock skew allowed between invoice-service and the watcher: a block scanned this long before an
     * invoice's creation time is still back-filled for it.
     */
    static final String SKEW = "60 seconds";

    /** An address announced by an {@code invoice.created} event. */
    public record NewDeposit(String chain, String address, UUID invoiceId, Instant invoiceCreated) {
    }

    /** A registered address; {@code backfillFrom} is the first block still to back-fill (null: none). */
    public record Deposit(long seq, String chain, String address, UUID invoiceId, Long backfillFrom) {
    }

    /**
     * Registers an address once. Its back-fill starts after the newest block scanned before the invoice
     * existed (such a block cannot hold a payment of it), or at the oldest remembered block; no back-fill
     * when the chain was never scanned (its first scan starts below the head anyway).
     */
    public Uni<Boolean> register(SqlClient c, NewDeposit d) {
        return c.preparedQuery("insert into deposit_address (chain, address, invoice_id, invoice_created, backfill_from, registered_at)"
                        + " values ($1, $2, $3, $4, (select coalesce("
                        + "   (select max(block_number) + 1 from seen_block where chain = $1 and scanned_at < $4::timestamptz - interval '" + SKEW + "'),"
                        + "   (select min(block_number) from seen_block where chain = $1))), now())"
                        + " on conflict (chain, address) do nothing")
                .execute(Tuple.of(d.chain(), d.address(), d.invoiceId(), Times.db(d.invoiceCreated())))
                .map(rs -> rs.rowCount() == 1);
    }

    /** Addresses of a chain registered after {@code afterSeq}, in registration order. */
    public Uni<List<Deposit>> since(SqlClient c, String chain, long afterSeq, int limit) {
        return c.preparedQuery("select seq, chain, address, invoice_id, backfill_from from deposit_address"
                        + " where chain = $1 and seq > $2 order by seq limit $3")
                .execute(Tuple.of(chain, afterSeq, limit))
                .map(DepositRepository::deposits);
    }

    /**
     * Addresses whose back-fill is still to do, among those registered up to {@code maxSeq} (the ones the
     * scanner already matches against: an address registered later is back-filled on a later tick, up to
     * a checkpoint that covers every block scanned without it).
     */
    public Uni<List<Deposit>> pendingBackfill(SqlClient c, String chain, long maxSeq, int limit) {
        return c.preparedQuery("select seq, chain, address, invoice_id, backfill_from from deposit_address"
                        + " where chain = $1 and backfill_from is not null and seq <= $2 order by backfill_from, seq limit $3")
                .execute(Tuple.of(chain, maxSeq, limit))
                .map(DepositRepository::deposits);
    }

    private static List<Deposit> deposits(io.vertx.mutiny.sqlclient.RowSet<Row> rs) {
        return Rows.list(rs, r -> new Deposit(r.getLong(0), r.getString(1), r.getString(2), r.getUUID(3), r.getLong(4)));
    }
}
