package dev.agentpay.discovery.trust.repository;

import dev.agentpay.commons.sql.Times;
import dev.agentpay.discovery.trust.domain.TrustCounts;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.UUID;

/** The trust-signal counter tables (see {@code V2__discovery.sql}). */
@ApplicationScoped
public class TrustCounterRepository {

    public Uni<Void> drsReceipt(SqlClient tx, String mandateId, UUID eventId, Instant at) {
        return tx.preparedQuery("insert into drs_receipt (mandate_id, event_id, occurred_at) values ($1, $2, $3) on conflict do nothing")
                .execute(Tuple.of(mandateId, eventId, Times.db(at))).replaceWithVoid();
    }

    public Uni<Void> anchored(SqlClient tx, String transitionId, String mandateId, String txHash, Instant at) {
        return tx.preparedQuery("insert into anchored_transition (transition_id, mandate_id, tx_hash, occurred_at) values ($1, $2, $3, $4)"
                        + " on conflict do nothing")
                .execute(Tuple.of(transitionId, mandateId, txHash, Times.db(at))).replaceWithVoid();
    }

    public Uni<Void> settled(SqlClient tx, String invoiceId, Instant at) {
        return tx.preparedQuery("insert into settled_invoice (invoice_id, occurred_at) values ($1, $2) on conflict do nothing")
                .execute(Tuple.of(invoiceId, Times.db(at))).replaceWithVoid();
    }

    public Uni<Void> unsettled(SqlClient tx, String invoiceId) {
        return tx.preparedQuery("delete from settled_invoice where invoice_id = $1").execute(Tuple.of(invoiceId)).replaceWithVoid();
    }

    public Uni<TrustCounts> counts(SqlClient c) {
        return c.query("select (select count(*) from drs_receipt) as drs,"
                        + " (select count(distinct mandate_id) from anchored_transition) as mandates,"
                        + " (select count(*) from anchored_transition) as transitions,"
                        + " (select count(*) from settled_invoice) as settled")
                .execute()
                .map(rs -> {
                    Row r = rs.iterator().next();
                    return new TrustCounts(r.getLong("drs"), r.getLong("mandates"), r.getLong("transitions"), r.getLong("settled"));
                });
    }

}
