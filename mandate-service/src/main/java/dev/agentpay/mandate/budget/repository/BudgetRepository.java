package dev.agentpay.mandate.budget.repository;

import static dev.agentpay.commons.sql.Times.db;
import static dev.agentpay.commons.sql.Times.instant;

import dev.agentpay.commons.sql.Rows;
import dev.agentpay.mandate.budget.domain.BudgetLedger;
import dev.agentpay.mandate.budget.domain.BudgetTerms;
import dev.agentpay.mandate.budget.domain.Charge;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/** SQL of budgets and charges; every method runs on the caller's connection (and its transaction). */
@ApplicationScoped
public class BudgetRepository {

    private static final String BUDGET_COLUMNS = "mandate_id, amount, currency, period, max_per_charge, amount_atomic,"
            + " period_millis, max_per_charge_atomic, period_start, reserved_atomic, spent_atomic, created_at, updated_at";

    private static final String CHARGE_COLUMNS = "id, seq, mandate_id, partner_id, amount_atomic, chain, description,"
            + " invoice_expires_at, status, invoice_id, idempotency_key, fingerprint, answer, created_at, settled_at,"
            + " released_at, settled_period_start";

    private static final String BUDGET_OF_MANDATE = "select " + BUDGET_COLUMNS + " from mandate_budget where mandate_id = $1";

    private static final String CHARGE_BY_ID = "select " + CHARGE_COLUMNS + " from mandate_charge where id = $1";

    /** Appended to a select: its row locked until the transaction ends. */
    private static final String FOR_UPDATE = " for update";

    /** A budget row: its signed terms and its ledger. */
    public record BudgetRow(String mandateId, BudgetTerms terms, BudgetLedger ledger, BigInteger maxPerChargeAtomic) {
    }

    public Uni<Void> insert(SqlClient sql, String mandateId, BudgetTerms t, Instant now) {
        Duration period = t.periodDuration();
        return sql.preparedQuery("insert into mandate_budget (mandate_id, amount, currency, period, max_per_charge,"
                        + " amount_atomic, period_millis, max_per_charge_atomic, created_at, updated_at)"
                        + " values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)")
                .execute(Tuple.from(Arrays.asList(mandateId, t.amount(), t.currency(), t.period(), t.maxPerCharge(),
                        new BigDecimal(t.amountAtomic()), period == null ? null : period.toMillis(),
                        t.maxPerChargeAtomic() == null ? null : new BigDecimal(t.maxPerChargeAtomic()), db(now))))
                .replaceWithVoid();
    }

    /** The budget of a mandate, or {@code null} when it has none. */
    public Uni<BudgetRow> find(SqlClient sql, String mandateId) {
        return first(sql, BUDGET_OF_MANDATE, Tuple.of(mandateId), BudgetRepository::mapBudget);
    }

    /**
     * The budget row locked until the transaction ends: every change of a budget's ledger holds this lock, so
     * the changes of one budget apply one after the other, each on the state the previous one committed.
     */
    public Uni<BudgetRow> lock(SqlClient sql, String mandateId) {
        return first(sql, BUDGET_OF_MANDATE + FOR_UPDATE, Tuple.of(mandateId), BudgetRepository::mapBudget);
    }

    public Uni<Void> updateLedger(SqlClient sql, String mandateId, BudgetLedger l, Instant now) {
        return sql.preparedQuery("update mandate_budget set period_start = $2, reserved_atomic = $3, spent_atomic = $4,"
                        + " updated_at = $5 where mandate_id = $1")
                .execute(Tuple.from(Arrays.asList(mandateId, db(l.periodStart()), new BigDecimal(l.reserved()),
                        new BigDecimal(l.spent()), db(now))))
                .replaceWithVoid();
    }

    /** When the mandate became signed by every party (the budget's period anchor), or {@code null} if not yet. */
    public Uni<Instant> signedByAllAt(SqlClient sql, String mandateId) {
        return sql.preparedQuery("select min(created_at) as at from mandate_transition where mandate_id = $1"
                        + " and to_state in ('signed_by_both', 'signed_by_all')")
                .execute(Tuple.of(mandateId)).map(rs -> instant(rs.iterator().next(), "at"));
    }

    public Uni<Void> insertCharge(SqlClient sql, Charge c) {
        return sql.preparedQuery("insert into mandate_charge (id, mandate_id, partner_id, amount_atomic, chain, description,"
                        + " invoice_expires_at, status, idempotency_key, fingerprint, created_at)"
                        + " values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)")
                .execute(Tuple.from(Arrays.asList(c.id(), c.mandateId(), c.partnerId(), new BigDecimal(c.amountAtomic()),
                        c.chain(), c.description(), db(c.invoiceExpiresAt()), c.status(), c.idempotencyKey(),
                        c.fingerprint(), db(c.createdAt()))))
                .replaceWithVoid();
    }

    /** The partner's charge made with this Idempotency-Key, or {@code null}. */
    public Uni<Charge> findByKey(SqlClient sql, String partnerId, String key) {
        return first(sql, "select " + CHARGE_COLUMNS + " from mandate_charge where partner_id = $1 and idempotency_key = $2",
                Tuple.of(partnerId, key), BudgetRepository::mapCharge);
    }

    public Uni<Charge> findCharge(SqlClient sql, String id) {
        return first(sql, CHARGE_BY_ID, Tuple.of(id), BudgetRepository::mapCharge);
    }

    /** The charge locked until the transaction ends (taken after its budget's lock, never before). */
    public Uni<Charge> lockCharge(SqlClient sql, String id) {
        return first(sql, CHARGE_BY_ID + FOR_UPDATE, Tuple.of(id), BudgetRepository::mapCharge);
    }

    /** The first row {@code query} answers, mapped, or {@code null} when there is none. */
    private static <T> Uni<T> first(SqlClient sql, String query, Tuple args, Function<Row, T> map) {
        return sql.preparedQuery(query).execute(args).map(rs -> Rows.firstOrNull(rs, map));
    }

    /** {@code reserving} to {@code pending} with its invoice and the answer replays return; false if it was not reserving. */
    public Uni<Boolean> link(SqlClient sql, String chargeId, String invoiceId, String answer) {
        return sql.preparedQuery("update mandate_charge set status = 'pending', invoice_id = $2, answer = $3"
                        + " where id = $1 and status = 'reserving'")
                .execute(Tuple.of(chargeId, invoiceId, answer)).map(rs -> rs.rowCount() == 1);
    }

    /** The first answer of a charge finished by the recovery loop, stored when a replay first builds it. */
    public Uni<Void> storeAnswer(SqlClient sql, String chargeId, String answer) {
        return sql.preparedQuery("update mandate_charge set answer = $2 where id = $1 and answer is null")
                .execute(Tuple.of(chargeId, answer)).replaceWithVoid();
    }

    /** The charge's invoice settled: spent in the period starting {@code periodStart}. */
    public Uni<Void> settle(SqlClient sql, String chargeId, String invoiceId, Instant at, Instant periodStart) {
        return sql.preparedQuery("update mandate_charge set status = 'settled', invoice_id = $2, settled_at = $3,"
                        + " settled_period_start = $4 where id = $1")
                .execute(Tuple.of(chargeId, invoiceId, db(at), db(periodStart))).replaceWithVoid();
    }

    /** The charge's invoice expired: its reservation is given back. */
    public Uni<Void> release(SqlClient sql, String chargeId, String invoiceId, Instant at) {
        return sql.preparedQuery("update mandate_charge set status = 'released', invoice_id = $2, released_at = $3 where id = $1")
                .execute(Tuple.of(chargeId, invoiceId, db(at))).replaceWithVoid();
    }

    /** Removes a charge whose invoice was refused (never created, never announced); false if it was not reserving. */
    public Uni<Boolean> deleteReserving(SqlClient sql, String chargeId) {
        return sql.preparedQuery("delete from mandate_charge where id = $1 and status = 'reserving'")
                .execute(Tuple.of(chargeId)).map(rs -> rs.rowCount() == 1);
    }

    /** Charges still {@code reserving} created before {@code before}, oldest first (the recovery loop's work). */
    public Uni<List<Charge>> reservingBefore(SqlClient sql, Instant before, int limit) {
        return sql.preparedQuery("select " + CHARGE_COLUMNS + " from mandate_charge where status = 'reserving'"
                        + " and created_at < $1 order by created_at limit $2")
                .execute(Tuple.of(db(before), limit)).map(rs -> Rows.list(rs, BudgetRepository::mapCharge));
    }

    /** A page of a mandate's charges, newest first, before {@code beforeSeq} (null: from the newest). */
    public Uni<List<Charge>> page(SqlClient sql, String mandateId, Long beforeSeq, int limit) {
        return sql.preparedQuery("select " + CHARGE_COLUMNS + " from mandate_charge where mandate_id = $1"
                        + " and ($2::bigint is null or seq < $2) order by seq desc limit $3")
                .execute(Tuple.of(mandateId, beforeSeq, limit)).map(rs -> Rows.list(rs, BudgetRepository::mapCharge));
    }

    private static BudgetRow mapBudget(Row r) {
        BudgetTerms terms = new BudgetTerms(r.getString("amount"), r.getString("currency"), r.getString("period"),
                r.getString("max_per_charge"));
        Long millis = r.getLong("period_millis");
        BigDecimal max = r.getBigDecimal("max_per_charge_atomic");
        BudgetLedger ledger = new BudgetLedger(r.getBigDecimal("amount_atomic").toBigIntegerExact(),
                millis == null ? null : Duration.ofMillis(millis), instant(r, "period_start"),
                r.getBigDecimal("reserved_atomic").toBigIntegerExact(), r.getBigDecimal("spent_atomic").toBigIntegerExact());
        return new BudgetRow(r.getString("mandate_id"), terms, ledger, max == null ? null : max.toBigIntegerExact());
    }

    private static Charge mapCharge(Row r) {
        return new Charge(r.getString("id"), r.getLong("seq"), r.getString("mandate_id"), r.getString("partner_id"),
                r.getBigDecimal("amount_atomic").toBigIntegerExact(), r.getString("chain"), r.getString("description"),
                instant(r, "invoice_expires_at"), r.getString("status"), r.getString("invoice_id"),
                r.getString("idempotency_key"), r.getString("fingerprint"), r.getString("answer"),
                instant(r, "created_at"), instant(r, "settled_at"), instant(r, "released_at"),
                instant(r, "settled_period_start"));
    }
}
