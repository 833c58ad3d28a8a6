package dev.agentpay.invoice.x402.repository;

import dev.agentpay.commons.sql.Rows;
import dev.agentpay.commons.sql.Times;
import dev.agentpay.invoice.x402.domain.Capability;
import dev.agentpay.invoice.x402.domain.PaymentState;
import dev.agentpay.invoice.x402.domain.X402Payment;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;
import com.fasterxml.jackson.databind.ObjectMapper;

/** x402 payments in raw reactive SQL; callers pass their connection or transaction. */
@ApplicationScoped
public class PaymentRepository {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String COLUMNS = "id, payment_key, capability, x402_version, network, payer, pay_to, asset,"
            + " amount_atomic, valid_before, nonce, state, request, tx_hash, invoice_id, failure_code, failure_message,"
            + " created_at, updated_at";

    /**
     * Takes the payment's key: inserts it as SETTLING, or takes over a FAILED row of the same key (a
     * refused or never-settled payment may be presented again). Atomic through the unique key: of two
     * concurrent claims exactly one wins.
     *
     * @return true when this call owns the payment now
     */
    public Uni<Boolean> claim(SqlClient c, X402Payment p) {
        return c.preparedQuery("insert into x402_payment (" + COLUMNS + ") values ($1, $2, $3, $4, $5, $6, $7, $8, $9,"
                        + " $10, $11, 'SETTLING', $12, null, $14, null, null, $13, $13)"
                        + " on conflict (payment_key) do update set id = excluded.id, capability = excluded.capability,"
                        + " x402_version = excluded.x402_version, network = excluded.network, payer = excluded.payer,"
                        + " pay_to = excluded.pay_to, asset = excluded.asset, amount_atomic = excluded.amount_atomic,"
                        + " valid_before = excluded.valid_before, nonce = excluded.nonce, state = 'SETTLING',"
                        + " request = excluded.request, tx_hash = null, invoice_id = excluded.invoice_id, failure_code = null,"
                        + " failure_message = null, updated_at = excluded.updated_at"
                        + " where x402_payment.state = 'FAILED' returning id")
                .execute(Tuple.tuple(List.of(p.id(), p.key(), p.capability().value(), (short) p.version(), p.network()))
                        .addString(p.payer()).addString(p.payTo()).addString(p.asset())
                        .addBigDecimal(new BigDecimal(p.amount())).addOffsetDateTime(Times.db(p.validBefore()))
                        .addString(p.nonce()).addValue(new JsonObject(p.request().toString()))
                        .addOffsetDateTime(Times.db(p.createdAt()))
                        // an invoice payment names its invoice from the start (x402_payment_pay_once)
                        .addUUID(p.capability() == dev.agentpay.invoice.x402.domain.Capability.PAY ? p.invoiceId() : null))
                .map(rs -> rs.rowCount() == 1);
    }

    public Uni<X402Payment> findByKey(SqlClient c, String key) {
        return one(c, "payment_key = $1", Tuple.of(key));
    }

    public Uni<X402Payment> find(SqlClient c, UUID id) {
        return one(c, "id = $1", Tuple.of(id));
    }

    /** The payment if it is still in {@code state}, locked for the caller's transaction. */
    public Uni<X402Payment> lockIn(SqlClient c, UUID id, PaymentState state) {
        return one(c, "id = $1 and state = $2 for update", Tuple.of(id, state.name()));
    }

    /**
     * To SETTLED with the chain transaction: from SETTLING, or from FAILED when the reconciler gave up on
     * a settle that then did land (money moved is the fact that wins). False when already further.
     */
    public Uni<Boolean> markSettled(SqlClient c, UUID id, String txHash, String payer, Instant at) {
        return c.preparedQuery("update x402_payment set state = 'SETTLED', tx_hash = coalesce($2, tx_hash),"
                        + " payer = coalesce($3, payer), failure_code = null, failure_message = null,"
                        + " updated_at = $4 where id = $1 and state in ('SETTLING', 'FAILED')")
                .execute(Tuple.of(id, txHash, payer, Times.db(at))).map(rs -> rs.rowCount() == 1);
    }

    /**
     * {@link #markSettled} returning the row, which the update also locks for the rest of the caller's
     * transaction (one round trip instead of an update and a {@code select ... for update}); null when
     * the payment was already further.
     */
    public Uni<X402Payment> markSettledAndLock(SqlClient c, UUID id, String txHash, String payer, Instant at) {
        return c.preparedQuery("update x402_payment set state = 'SETTLED', tx_hash = coalesce($2, tx_hash),"
                        + " payer = coalesce($3, payer), failure_code = null, failure_message = null,"
                        + " updated_at = $4 where id = $1 and state in ('SETTLING', 'FAILED') returning " + COLUMNS)
                .execute(Tuple.of(id, txHash, payer, Times.db(at))).map(PaymentRepository::first);
    }

    /** SETTLED to COMPLETED with its invoice (created or checked); false when it was no longer SETTLED. */
    public Uni<Boolean> markCompleted(SqlClient c, UUID id, UUID invoiceId, Instant at) {
        return c.preparedQuery("update x402_payment set state = 'COMPLETED', invoice_id = $2, updated_at = $3"
                        + " where id = $1 and state = 'SETTLED'")
                .execute(Tuple.of(id, invoiceId, Times.db(at))).map(rs -> rs.rowCount() == 1);
    }

    /** SETTLING to FAILED: the money did not move, so the key is free again. */
    public Uni<Boolean> markFailed(SqlClient c, UUID id, String code, String message, Instant at) {
        String m = message == null ? null : message.substring(0, Math.min(500, message.length()));
        return c.preparedQuery("update x402_payment set state = 'FAILED', failure_code = $2, failure_message = $3,"
                        + " updated_at = $4 where id = $1 and state = 'SETTLING'")
                .execute(Tuple.of(id, code, m, Times.db(at))).map(rs -> rs.rowCount() == 1);
    }

    /** Payments in {@code state} untouched since {@code before}, oldest first. */
    public Uni<List<X402Payment>> stale(SqlClient c, PaymentState state, Instant before, int limit) {
        return c.preparedQuery("select " + COLUMNS + " from x402_payment where state = $1 and updated_at < $2"
                        + " order by updated_at limit $3")
                .execute(Tuple.of(state.name(), Times.db(before), limit))
                .map(rs -> Rows.list(rs, r -> map(r)));
    }

    /** The row matching {@code where} (SQL after {@code where}, with its arguments), mapped; null when none. */
    private static Uni<X402Payment> one(SqlClient c, String where, Tuple args) {
        return c.preparedQuery("select " + COLUMNS + " from x402_payment where " + where).execute(args).map(PaymentRepository::first);
    }

    private static X402Payment first(RowSet<Row> rs) {
        return rs.size() == 0 ? null : map(rs.iterator().next());
    }

    static X402Payment map(Row r) {
        try {
            Object req = r.getValue("request");
            String reqText = req instanceof JsonObject j ? j.encode() : String.valueOf(req);
            return new X402Payment(r.getUUID("id"), r.getString("payment_key"), Capability.of(r.getString("capability")),
                    r.getShort("x402_version"), r.getString("network"), r.getString("payer"), r.getString("pay_to"),
                    r.getString("asset"), r.getBigDecimal("amount_atomic").toBigIntegerExact(),
                    instant(r.getOffsetDateTime("valid_before")), r.getString("nonce"),
                    PaymentState.valueOf(r.getString("state")), JSON.readTree(reqText), r.getString("tx_hash"),
                    r.getUUID("invoice_id"), r.getString("failure_code"), r.getString("failure_message"),
                    instant(r.getOffsetDateTime("created_at")), instant(r.getOffsetDateTime("updated_at")));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("stored x402 request is not JSON", e);
        }
    }


    static Instant instant(OffsetDateTime t) {
        return t == null ? null : t.toInstant();
    }
}
