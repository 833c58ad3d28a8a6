package dev.agentpay.mandate.idempotency.repository;

import static dev.agentpay.commons.sql.Times.db;

import dev.agentpay.commons.sql.Rows;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;

/** SQL for stored Idempotency-Key responses. */
@ApplicationScoped
public class IdempotencyRepository {

    /** A stored response and the fingerprint of the request that produced it. */
    public record Stored(String requestHash, int status, String body) {
    }

    /** The record for this key created after {@code notBefore}, or {@code null}. */
    public Uni<Stored> find(SqlClient sql, String partnerId, String key, Instant notBefore) {
        return sql.preparedQuery("select request_hash, status, body from idempotency_record"
                        + " where partner_id = $1 and idem_key = $2 and created_at > $3")
                .execute(Tuple.of(partnerId, key, db(notBefore)))
                .map(rs -> Rows.firstOrNull(rs, r -> new Stored(r.getString("request_hash"), r.getInteger("status"), r.getString("body"))));
    }

    /**
     * Stores a response unless a live record for the key exists (a stale one, older than
     * {@code notBefore}, is replaced). Returns whether this call stored it.
     */
    public Uni<Boolean> store(SqlClient sql, String partnerId, String key, String requestHash, int status, String body,
            Instant now, Instant notBefore) {
        return sql.preparedQuery("insert into idempotency_record (partner_id, idem_key, request_hash, status, body, created_at)"
                        + " values ($1, $2, $3, $4, $5, $6) on conflict (partner_id, idem_key) do update set"
                        + " request_hash = excluded.request_hash, status = excluded.status, body = excluded.body,"
                        + " created_at = excluded.created_at where idempotency_record.created_at <= $7")
                .execute(Tuple.from(List.of(partnerId, key, requestHash, status, body, db(now), db(notBefore))))
                .map(rs -> rs.rowCount() == 1);
    }

    public Uni<Integer> deleteOlderThan(SqlClient sql, Instant notBefore) {
        return sql.preparedQuery("delete from idempotency_record where created_at <= $1")
                .execute(Tuple.of(db(notBefore)))
                .map(rs -> rs.rowCount());
    }
}
