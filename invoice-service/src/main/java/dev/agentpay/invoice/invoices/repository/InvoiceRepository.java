package dev.agentpay.invoice.invoices.repository;

import dev.agentpay.commons.sql.Rows;
import dev.agentpay.commons.sql.Times;
import dev.agentpay.invoice.invoices.domain.Invoice;
import dev.agentpay.invoice.invoices.domain.InvoiceStatus;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/** Invoices, in raw reactive SQL (callers pass their transaction). */
@ApplicationScoped
public class InvoiceRepository {

    private static final String COLUMNS = "id, invoice_number, partner_id, status, amount, currency, customer_email,"
            + " customer_name, description, chain, network_id, payment_address, usdc_address, payable_atomic, memo,"
            + " tx_hash, settlement_block_number, settlement_source, settlement_transfer_id, paid_atomic, payer_address,"
            + " settled_at, created_at, address_kind, expired_at, expires_at, mandate_id, charge_id";

    /**
     * The partner's next invoice number (its own counter, from 1001), in the caller's transaction: the
     * counter row stays locked until it commits, so numbers follow creation order without gaps and say
     * nothing about other partners.
     */
    public Uni<Long> nextNumber(SqlClient c, String partnerId) {
        return c.preparedQuery("insert into partner_invoice_counter (partner_id, last_number) values ($1, 1001)"
                        + " on conflict (partner_id) do update set last_number = partner_invoice_counter.last_number + 1"
                        + " returning last_number")
                .execute(Tuple.of(partnerId))
                .map(rs -> rs.iterator().next().getLong(0));
    }

    public Uni<Void> insert(SqlClient c, Invoice i) {
        return c.preparedQuery("insert into invoice (" + COLUMNS + ", updated_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9,"
                        + " $10, $11, $12, $13, $14, $15, null, null, null, null, 0, null, null, $16, $17, null, $18, $19, $20, $16)")
                .execute(Tuple.tuple(List.of(i.id(), i.invoiceNumber(), i.partnerId(), i.status().name(), i.amount(),
                        i.currency()))
                        .addString(i.customerEmail()).addString(i.customerName()).addString(i.description())
                        .addString(i.chain()).addString(i.networkId()).addString(i.paymentAddress())
                        .addString(i.usdcAddress()).addBigDecimal(new BigDecimal(i.payableAtomic()))
                        .addString(i.memo()).addOffsetDateTime(Times.db(i.createdAt()))
                        .addString(i.addressKind().name().toLowerCase(java.util.Locale.ROOT))
                        .addOffsetDateTime(Times.db(i.expiresAt()))
                        .addString(i.mandateId()).addString(i.chargeId()))
                .replaceWithVoid();
    }

    /** The invoice made for this charge (issue 28), or {@code null}. */
    public Uni<Invoice> findByCharge(SqlClient c, String chargeId) {
        return one(c, "charge_id = $1", Tuple.of(chargeId));
    }

    /** Serializes the creation of one charge's invoice until the transaction ends (an advisory lock on the charge id). */
    public Uni<Void> lockCharge(SqlClient c, String chargeId) {
        return c.preparedQuery("select pg_advisory_xact_lock(hashtextextended($1, 28))").execute(Tuple.of(chargeId))
                .replaceWithVoid();
    }

    public Uni<Invoice> findForPartner(SqlClient c, String partnerId, UUID id) {
        return one(c, "id = $1 and partner_id = $2", Tuple.of(id, partnerId));
    }

    /** Any invoice by id, whoever owns it (x402 settlement checks; the id is the capability). */
    public Uni<Invoice> find(SqlClient c, UUID id) {
        return one(c, "id = $1", Tuple.of(id));
    }

    public Uni<Invoice> lock(SqlClient c, UUID id) {
        return one(c, "id = $1 for update", Tuple.of(id));
    }

    /** The invoice of the charge whose escrow release carries this {@code ref} (issue 30), locked; or {@code null}. */
    public Uni<Invoice> lockByEscrowRef(SqlClient c, String ref) {
        return one(c, "escrow_ref = $1 for update", Tuple.of(ref));
    }

    /** Records the escrow {@code ref} of a charge's invoice (keccak-256 of the charge id). */
    public Uni<Void> setEscrowRef(SqlClient c, UUID id, String ref) {
        return c.preparedQuery("update invoice set escrow_ref = $2 where id = $1").execute(Tuple.of(id, ref))
                .map(rs -> expectOne(rs, id));
    }

    /** The invoice whose own deposit address this is on this chain, locked (EVM attribution). */
    public Uni<Invoice> lockByDepositAddress(SqlClient c, String chain, String address) {
        return one(c, "chain = $1 and lower(payment_address) = lower($2)"
                        + " and address_kind = 'deposit' for update", Tuple.of(chain, address));
    }

    /** Adds (or, negative, takes back) a received amount to an invoice's running total. */
    public Uni<Void> credit(SqlClient c, UUID id, BigInteger amount, Instant at) {
        return c.preparedQuery("update invoice set paid_atomic = paid_atomic + $2, updated_at = $3 where id = $1")
                .execute(Tuple.of(id, new BigDecimal(amount), Times.db(at)))
                .map(rs -> expectOne(rs, id));
    }

    public Uni<Invoice> lockByMemo(SqlClient c, String chain, String memo) {
        return one(c, "chain = $1 and memo = $2 for update", Tuple.of(chain, memo));
    }

    /** A partner's invoices, newest first, strictly before {@code beforeNumber} when given. */
    public Uni<List<Invoice>> page(SqlClient c, String partnerId, Long beforeNumber, InvoiceStatus status, int limit) {
        return c.preparedQuery("select " + COLUMNS + " from invoice where partner_id = $1"
                        + " and ($2::bigint is null or invoice_number < $2) and ($3::varchar is null or status = $3)"
                        + " order by invoice_number desc limit $4")
                .execute(Tuple.of(partnerId, beforeNumber, status == null ? null : status.name(), limit))
                .map(rs -> Rows.list(rs, r -> map(r)));
    }

    /** PENDING to SETTLED by the transfer that made the received total reach the amount. */
    public Uni<Void> markSettled(SqlClient c, UUID id, String txHash, Long block, String source, String transferId,
            String payer, Instant at) {
        return c.preparedQuery("update invoice set status = 'SETTLED', tx_hash = $2, settlement_block_number = $3,"
                        + " settlement_source = $4, settlement_transfer_id = $5, payer_address = $6,"
                        + " settled_at = $7, updated_at = $7 where id = $1 and status = 'PENDING'")
                .execute(Tuple.of(id, txHash, block, source, transferId, payer).addOffsetDateTime(Times.db(at)))
                .map(rs -> expectOne(rs, id));
    }

    /**
     * PENDING invoices past their {@code expires_at} become EXPIRED, at most {@code limit} at a time,
     * rows other transactions hold skipped; an invoice with an x402 payment in flight or settled but not
     * yet counted is left alone (that payment was accepted before the deadline). Returns them as changed.
     */
    public Uni<List<Invoice>> expireDue(SqlClient c, Instant now, int limit) {
        return c.preparedQuery("with due as (select id as due_id from invoice where status = 'PENDING' and expires_at <= $1"
                        + " and not exists (select 1 from x402_payment p where p.invoice_id = invoice.id and p.capability = 'pay'"
                        + " and p.state in ('SETTLING', 'SETTLED')) order by expires_at limit $2 for update skip locked)"
                        + " update invoice set status = 'EXPIRED', expired_at = $1, updated_at = $1 from due where id = due_id"
                        + " returning " + COLUMNS)
                .execute(Tuple.of(Times.db(now), limit))
                .map(rs -> Rows.list(rs, r -> map(r)));
    }

    /** One PENDING invoice to EXPIRED (a payment found it past its deadline); the caller holds its lock. */
    public Uni<Void> markExpired(SqlClient c, UUID id, Instant at) {
        return c.preparedQuery("update invoice set status = 'EXPIRED', expired_at = $2, updated_at = $2"
                        + " where id = $1 and status = 'PENDING'")
                .execute(Tuple.of(id, Times.db(at)))
                .map(rs -> expectOne(rs, id));
    }

    /** SETTLED back to PENDING (a reorg took away a payment it needed); the received total is kept as credited. */
    public Uni<Void> markPending(SqlClient c, UUID id, Instant at) {
        return c.preparedQuery("update invoice set status = 'PENDING', tx_hash = null, settlement_block_number = null,"
                        + " settlement_source = null, settlement_transfer_id = null, payer_address = null,"
                        + " settled_at = null, updated_at = $2 where id = $1 and status = 'SETTLED'")
                .execute(Tuple.of(id, Times.db(at)))
                .map(rs -> expectOne(rs, id));
    }

    private static Void expectOne(RowSet<Row> rs, UUID id) {
        if (rs.rowCount() != 1) {
            throw new IllegalStateException("invoice " + id + " was not in the expected state");
        }
        return null;
    }

    /** The row matching {@code where} (SQL after {@code where}, with its arguments), mapped; null when none. */
    private static Uni<Invoice> one(SqlClient c, String where, Tuple args) {
        return c.preparedQuery("select " + COLUMNS + " from invoice where " + where).execute(args).map(InvoiceRepository::first);
    }

    private static Invoice first(RowSet<Row> rs) {
        return rs.size() == 0 ? null : map(rs.iterator().next());
    }

    static Invoice map(Row r) {
        BigDecimal paid = r.getBigDecimal("paid_atomic");
        return new Invoice(r.getUUID("id"), r.getLong("invoice_number"), r.getString("partner_id"),
                InvoiceStatus.valueOf(r.getString("status")), r.getBigDecimal("amount"), r.getString("currency"),
                r.getString("customer_email"), r.getString("customer_name"), r.getString("description"),
                r.getString("chain"), r.getString("network_id"), r.getString("payment_address"),
                r.getString("usdc_address"), r.getBigDecimal("payable_atomic").toBigIntegerExact(), r.getString("memo"),
                r.getString("tx_hash"), r.getLong("settlement_block_number"), r.getString("settlement_source"),
                r.getString("settlement_transfer_id"), paid.toBigIntegerExact(),
                r.getString("payer_address"), instant(r.getOffsetDateTime("settled_at")),
                instant(r.getOffsetDateTime("created_at")),
                Invoice.AddressKind.valueOf(r.getString("address_kind").toUpperCase(java.util.Locale.ROOT)),
                instant(r.getOffsetDateTime("expired_at")), instant(r.getOffsetDateTime("expires_at")),
                r.getString("mandate_id"), r.getString("charge_id"));
    }


    static Instant instant(OffsetDateTime t) {
        return t == null ? null : t.toInstant();
    }
}
