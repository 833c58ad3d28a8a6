package dev.agentpay.mandate.receipt.repository;

import static dev.agentpay.commons.sql.Times.db;
import static dev.agentpay.commons.sql.Times.instant;

import dev.agentpay.mandate.receipt.domain.Receipt;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** SQL for DRS receipts. */
@ApplicationScoped
public class ReceiptRepository {

    private static final String COLUMNS = "id, mandate_id, partner_id, mandate_hash, proposer_signature,"
            + " counterparty_signature, signed_by_proposer_at, signed_by_counterparty_at, issued_at, parties";

    public Uni<Void> insert(SqlClient sql, Receipt r) {
        return sql.preparedQuery("insert into receipt (" + COLUMNS + ") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)")
                .execute(Tuple.from(java.util.Arrays.asList(r.id(), r.mandateId(), r.partnerId(), r.mandateHash(),
                        r.proposerSignature(), r.counterpartySignature(), db(r.signedByProposerAt()),
                        db(r.signedByCounterpartyAt()), db(r.issuedAt()), r.parties())))
                .replaceWithVoid();
    }

    /** The partner's receipt, or {@code null} (also when it belongs to another partner). */
    public Uni<Receipt> find(SqlClient sql, String id, String partnerId) {
        return sql.preparedQuery("select " + COLUMNS + " from receipt where id = $1 and partner_id = $2")
                .execute(Tuple.of(id, partnerId))
                .map(rs -> rs.size() == 0 ? null : map(rs.iterator().next()));
    }

    private static Receipt map(Row r) {
        return new Receipt(r.getString("id"), r.getString("mandate_id"), r.getString("partner_id"),
                r.getString("mandate_hash"), r.getString("proposer_signature"), r.getString("counterparty_signature"),
                instant(r, "signed_by_proposer_at"), instant(r, "signed_by_counterparty_at"), instant(r, "issued_at"),
                r.getString("parties"));
    }
}
