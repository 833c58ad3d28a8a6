package dev.agentpay.settlement.escrow.repository;

import dev.agentpay.commons.sql.Rows;
import dev.agentpay.commons.sql.Times;
import dev.agentpay.settlement.escrow.domain.NewCommand;
import dev.agentpay.settlement.escrow.domain.OpenCommand;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/** The escrow command ledger ({@code escrow_command}); runs on the client it is given, the service owns transactions. */
@ApplicationScoped
public class EscrowCommandRepository {

    /** Records a command once; emits whether it was new. */
    public Uni<Boolean> record(SqlClient c, NewCommand cmd, Instant now) {
        return c.preparedQuery("insert into escrow_command (command_id, chain, type, escrow_id, mandate_hash, calldata, state,"
                        + " created_at, updated_at) values ($1, $2, $3, $4, $5, $6, 'PENDING', $7, $7) on conflict (command_id) do nothing")
                .execute(Tuple.tuple().addString(cmd.commandId()).addString(cmd.chain()).addString(cmd.type())
                        .addString(cmd.escrowId()).addString(cmd.mandateHash()).addString(cmd.calldata())
                        .addOffsetDateTime(Times.db(now)))
                .map(rs -> rs.rowCount() == 1);
    }

    /** The chain's oldest open command, if any. */
    public Uni<List<OpenCommand>> oldestOpen(SqlClient c, String chain) {
        return c.preparedQuery("select command_id, chain, type, escrow_id, mandate_hash, calldata, state, tx_hash, nonce, raw_tx, attempts,"
                        + " sent_at from escrow_command where chain = $1 and state in ('PENDING', 'SENT') order by created_at, command_id limit 1")
                .execute(Tuple.of(chain))
                .map(rs -> Rows.list(rs, r -> new OpenCommand(r.getString(0), r.getString(1), r.getString(2), r.getString(3),
                        r.getString(4), r.getString(5), r.getString(6), r.getString(7), r.getLong(8), r.getString(9), r.getInteger(10),
                        Times.instant(r, "sent_at"))));
    }

    public Uni<Void> sent(SqlClient tx, String commandId, String txHash, long nonce, String raw, Instant now) {
        return tx.preparedQuery("update escrow_command set state = 'SENT', tx_hash = $2, nonce = $3, raw_tx = $4,"
                        + " attempts = attempts + 1, sent_at = $5, updated_at = $5 where command_id = $1 and state = 'PENDING'")
                .execute(Tuple.of(commandId, txHash, nonce, raw, Times.db(now))).replaceWithVoid();
    }

    public Uni<Void> rebroadcast(SqlClient tx, String commandId, String error, Instant now) {
        return tx.preparedQuery("update escrow_command set sent_at = $2, updated_at = $2, last_error = $3 where command_id = $1 and state = 'SENT'")
                .execute(Tuple.of(commandId, Times.db(now), truncate(error))).replaceWithVoid();
    }

    /** Back to PENDING (its transaction reverted or vanished): the next round dry-runs it again. */
    public Uni<Void> reopen(SqlClient tx, String commandId, String reason, Instant now) {
        return tx.preparedQuery("update escrow_command set state = 'PENDING', last_error = $2, updated_at = $3"
                        + " where command_id = $1 and state = 'SENT'")
                .execute(Tuple.of(commandId, truncate(reason), Times.db(now))).replaceWithVoid();
    }

    /** DONE or FAILED; emits whether this call moved it (so its event is written once). */
    public Uni<Boolean> finish(SqlClient tx, String commandId, String state, String txHash, String reason, Instant now) {
        return tx.preparedQuery("update escrow_command set state = $2, tx_hash = coalesce($3, tx_hash), last_error = $4, updated_at = $5"
                        + " where command_id = $1 and state in ('PENDING', 'SENT')")
                .execute(Tuple.of(commandId, state, txHash, truncate(reason), Times.db(now)))
                .map(rs -> rs.rowCount() == 1);
    }

    private static String truncate(String s) {
        return s == null || s.length() <= 500 ? s : s.substring(0, 500);
    }
}
