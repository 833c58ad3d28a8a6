package dev.agentpay.invoice.settlement.repository;

import dev.agentpay.commons.sql.Rows;
import dev.agentpay.commons.sql.Times;
import dev.agentpay.commons.events.ChainTransferEvent;
import dev.agentpay.invoice.settlement.domain.UnmatchedTransfer;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Every transfer reported by the watcher and its outcome. */
@ApplicationScoped
public class TransferRepository {

    /** A transfer's recorded outcome. */
    public record Recorded(String status, UUID invoiceId, BigInteger amount) {
    }

    public Uni<Recorded> lock(SqlClient c, String transferId) {
        return c.preparedQuery("select status, invoice_id, amount from chain_transfer where transfer_id = $1 for update")
                .execute(Tuple.of(transferId))
                .map(rs -> {
                    if (rs.size() == 0) {
                        return null;
                    }
                    var r = rs.iterator().next();
                    return new Recorded(r.getString(0), r.getUUID(1), r.getBigDecimal(2).toBigIntegerExact());
                });
    }

    /** Records (or, for a transfer mined again after a retraction, re-records) a detection's outcome. */
    public Uni<Void> upsert(SqlClient c, ChainTransferEvent e, String status, String reason, UUID invoiceId, Instant at) {
        return c.preparedQuery("insert into chain_transfer (transfer_id, chain, tx_hash, log_index, block_number, from_address,"
                        + " to_address, token, amount, memo, source, status, reason, invoice_id, detected_at)"
                        + " values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)"
                        + " on conflict (transfer_id) do update set block_number = excluded.block_number, status = excluded.status,"
                        + " reason = excluded.reason, invoice_id = excluded.invoice_id, detected_at = excluded.detected_at,"
                        + " retracted_at = null")
                .execute(Tuple.tuple(List.of(e.aggregateId(), e.chain(), e.txHash(), e.index(), e.block()))
                        .addString(e.from()).addString(e.to()).addString(e.token())
                        .addBigDecimal(new BigDecimal(e.amount())).addString(e.memo()).addString(e.source())
                        .addString(status).addString(reason).addUUID(invoiceId).addOffsetDateTime(Times.db(at)))
                .replaceWithVoid();
    }

    /**
     * Records a payment made through x402 ({@code POST /v1/invoices/{id}/pay}) under the id
     * {@code x402:<txHash>}: the watcher reports the same transfer later, and must not count it twice.
     */
    public Uni<Void> recordX402(SqlClient c, String chain, String txHash, String payer, String to, String token,
            java.math.BigInteger amount, String status, UUID invoiceId, Instant at) {
        return c.preparedQuery("insert into chain_transfer (transfer_id, chain, tx_hash, log_index, block_number, from_address,"
                        + " to_address, token, amount, memo, source, status, reason, invoice_id, detected_at)"
                        + " values ($1, $2, $3, -1, 0, $4, $5, $6, $7, null, 'x402', $8, null, $9, $10) on conflict do nothing")
                .execute(Tuple.tuple(List.of("x402:" + txHash, chain, txHash)).addString(payer).addString(to).addString(token)
                        .addBigDecimal(new BigDecimal(amount)).addString(status).addUUID(invoiceId)
                        .addOffsetDateTime(Times.db(at)))
                .replaceWithVoid();
    }

    /** Whether this transaction was already counted for the invoice (by x402 or by the watcher). */
    public Uni<Boolean> countedForInvoice(SqlClient c, UUID invoiceId, String txHash) {
        return c.preparedQuery("select 1 from chain_transfer where invoice_id = $1 and lower(tx_hash) = lower($2)"
                        + " and status in ('SETTLED', 'CREDITED') limit 1")
                .execute(Tuple.of(invoiceId, txHash)).map(rs -> rs.size() > 0);
    }

    public Uni<Void> retract(SqlClient c, String transferId, Instant at) {
        return c.preparedQuery("update chain_transfer set status = 'RETRACTED', retracted_at = $2 where transfer_id = $1")
                .execute(Tuple.of(transferId, Times.db(at))).replaceWithVoid();
    }

    public Uni<List<UnmatchedTransfer>> unmatched(SqlClient c, int limit) {
        return c.preparedQuery("select transfer_id, chain, tx_hash, log_index, block_number, from_address, to_address, token,"
                        + " amount, memo, reason, detected_at from chain_transfer where status = 'UNMATCHED'"
                        + " order by detected_at desc limit $1")
                .execute(Tuple.of(limit))
                .map(rs -> Rows.list(rs, r -> new UnmatchedTransfer(r.getString(0), r.getString(1), r.getString(2),
                            r.getInteger(3), r.getLong(4), r.getString(5), r.getString(6), r.getString(7),
                            r.getBigDecimal(8).toBigIntegerExact().toString(), r.getString(9), r.getString(10),
                            r.getOffsetDateTime(11).toInstant().toString())));
    }
}
