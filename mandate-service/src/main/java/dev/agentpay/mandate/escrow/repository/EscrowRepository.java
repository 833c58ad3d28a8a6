package dev.agentpay.mandate.escrow.repository;

import static dev.agentpay.commons.sql.Times.db;

import dev.agentpay.commons.events.EscrowEvent;
import dev.agentpay.mandate.escrow.domain.EscrowState;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Arrays;
import java.util.UUID;

/** SQL for the escrow events a mandate-service applied and the commands it sent; runs on the caller's connection. */
@ApplicationScoped
public class EscrowRepository {

    /** A mandate found by its hash: its id and owner. */
    public record MandateRef(String id, String partnerId) {
    }

    /** The mandate whose {@code proto_mandate_hash} is {@code hash}, or null. */
    public Uni<MandateRef> mandateByHash(SqlClient sql, String hash) {
        return sql.preparedQuery("select id, partner_id from mandate where proto_mandate_hash = $1 limit 1")
                .execute(Tuple.of(hash))
                .map(rs -> rs.size() == 0 ? null : new MandateRef(rs.iterator().next().getString("id"),
                        rs.iterator().next().getString("partner_id")));
    }

    /** Records one contract event of the mandate's escrow (once per event id); answers whether it was new. */
    public Uni<Boolean> insertEvent(SqlClient sql, String mandateId, EscrowEvent e, Instant now) {
        EscrowEvent.Totals t = e.totals();
        return sql.preparedQuery("insert into mandate_escrow_event (event_id, mandate_id, type, chain, contract, escrow_id, tx_hash,"
                        + " log_index, block_number, amount_atomic, ref, funder, counterparty, stream_start, stream_end, expires_at,"
                        + " funded_atomic, released_atomic, withdrawn_atomic, refunded_atomic, held_atomic, state, created_at)"
                        + " values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,"
                        + " $22, $23) on conflict (event_id) do nothing")
                .execute(Tuple.from(Arrays.asList(e.eventId(), mandateId, e.type(), e.chain(), lower(e.contract()),
                        lower(e.escrowId()), lower(e.txHash()), e.logIndex(), e.blockNumber(), decimal(e.amount()), lower(e.ref()),
                        lower(e.funder()), lower(e.counterparty()), e.streamStart(), e.streamEnd(), e.expiresAt(),
                        decimal(t.funded()), decimal(t.released()), decimal(t.withdrawn()), decimal(t.refunded()), decimal(t.held()),
                        e.state(), db(now))))
                .map(rs -> rs.rowCount() == 1);
    }

    /** Marks an applied event as removed by a reorg; answers its mandate id, or null when this service never applied it. */
    public Uni<String> rollBack(SqlClient sql, UUID eventId) {
        return sql.preparedQuery("update mandate_escrow_event set rolled_back = true where event_id = $1 returning mandate_id")
                .execute(Tuple.of(eventId))
                .map(rs -> rs.size() == 0 ? null : rs.iterator().next().getString("mandate_id"));
    }

    /** The mandate's escrow as it now reads, or null. */
    public Uni<EscrowState> state(SqlClient sql, String mandateId) {
        return sql.preparedQuery("select " + EscrowColumn.SQL + " from mandate where id = $1")
                .execute(Tuple.of(mandateId))
                .map(rs -> rs.size() == 0 ? null : EscrowColumn.read(rs.iterator().next()));
    }

    /** Records a command sent (status {@code sent}). */
    public Uni<Void> insertCommand(SqlClient sql, UUID commandId, String mandateId, String type, String chargeId, String ref,
            BigInteger amount, BigInteger toCounterparty, BigInteger toProposer, Instant now) {
        return sql.preparedQuery("insert into mandate_escrow_command (command_id, mandate_id, type, charge_id, ref, amount_atomic,"
                        + " to_counterparty_atomic, to_proposer_atomic, status, created_at, updated_at)"
                        + " values ($1, $2, $3, $4, $5, $6, $7, $8, 'sent', $9, $9)")
                .execute(Tuple.from(Arrays.asList(commandId, mandateId, type, chargeId, ref, decimal(amount), decimal(toCounterparty),
                        decimal(toProposer), db(now))))
                .replaceWithVoid();
    }

    /** A command settlement-watcher reported refused for good: {@code failed} with its reason; answers its mandate id or null. */
    public Uni<String> commandFailed(SqlClient sql, UUID commandId, String reason, Instant now) {
        return sql.preparedQuery("update mandate_escrow_command set status = 'failed', reason = $2, updated_at = $3"
                        + " where command_id = $1 returning mandate_id")
                .execute(Tuple.of(commandId, reason, db(now)))
                .map(rs -> rs.size() == 0 ? null : rs.iterator().next().getString("mandate_id"));
    }

    /** The mandate's sent commands of {@code type} are done (the contract's event for them arrived). */
    public Uni<Void> commandsDone(SqlClient sql, String mandateId, String type, Instant now) {
        return sql.preparedQuery("update mandate_escrow_command set status = 'done', updated_at = $3"
                        + " where mandate_id = $1 and type = $2 and status = 'sent'")
                .execute(Tuple.of(mandateId, type, db(now)))
                .replaceWithVoid();
    }

    /** The sum of the mandate's releases sent and not yet seen on chain (atomic units). */
    public Uni<BigInteger> releasesInFlight(SqlClient sql, String mandateId) {
        return sql.preparedQuery("select coalesce(sum(amount_atomic), 0) from mandate_escrow_command"
                        + " where mandate_id = $1 and type = 'escrow.release' and status = 'sent'")
                .execute(Tuple.of(mandateId))
                .map(rs -> rs.iterator().next().getBigDecimal(0).toBigIntegerExact());
    }

    /** The release with this {@code ref} (keccak-256 of its charge id) is done. */
    public Uni<Void> releaseDone(SqlClient sql, String mandateId, String ref, Instant now) {
        return sql.preparedQuery("update mandate_escrow_command set status = 'done', updated_at = $3"
                        + " where mandate_id = $1 and ref = $2 and status = 'sent'")
                .execute(Tuple.of(mandateId, ref, db(now)))
                .replaceWithVoid();
    }

    private static String lower(String s) {
        return s == null ? null : s.toLowerCase(java.util.Locale.ROOT);
    }

    private static BigDecimal decimal(String atomic) {
        return atomic == null ? null : new BigDecimal(new BigInteger(atomic));
    }

    private static BigDecimal decimal(BigInteger i) {
        return i == null ? null : new BigDecimal(i);
    }
}
