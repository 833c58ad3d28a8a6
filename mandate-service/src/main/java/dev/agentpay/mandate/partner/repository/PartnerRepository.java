package dev.agentpay.mandate.partner.repository;

import dev.agentpay.commons.sql.Rows;
import static dev.agentpay.commons.sql.Times.db;
import static dev.agentpay.commons.sql.Times.instant;

import dev.agentpay.mandate.partner.domain.PartnerRecord;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;

/** SQL for the {@code partner} table; every method runs on the caller's connection (and its transaction). */
@ApplicationScoped
public class PartnerRepository {

    private static final String COLUMNS = "id, name, status, api_key_hash, signing_secret, created_at, updated_at";

    public Uni<PartnerRecord> find(SqlClient sql, String id) {
        return sql.preparedQuery("select " + COLUMNS + " from partner where id = $1")
                .execute(Tuple.of(id))
                .map(rs -> rs.size() == 0 ? null : map(rs.iterator().next()));
    }

    /** Finds and row-locks a partner, so concurrent administrative changes apply one after the other. */
    public Uni<PartnerRecord> lock(SqlClient sql, String id) {
        return sql.preparedQuery("select " + COLUMNS + " from partner where id = $1 for update")
                .execute(Tuple.of(id))
                .map(rs -> rs.size() == 0 ? null : map(rs.iterator().next()));
    }

    /** The id of the partner holding this key hash, or {@code null}. */
    public Uni<String> ownerOfKey(SqlClient sql, String apiKeyHash) {
        return sql.preparedQuery("select id from partner where api_key_hash = $1")
                .execute(Tuple.of(apiKeyHash))
                .map(rs -> rs.size() == 0 ? null : rs.iterator().next().getString("id"));
    }

    public Uni<List<PartnerRecord>> list(SqlClient sql) {
        return sql.query("select " + COLUMNS + " from partner order by created_at, id")
                .execute()
                .map(rs -> Rows.list(rs, r -> map(r)));
    }

    public Uni<Void> insert(SqlClient sql, PartnerRecord p) {
        return sql.preparedQuery("insert into partner (" + COLUMNS + ") values ($1, $2, $3, $4, $5, $6, $7)")
                .execute(Tuple.from(List.of(p.id(), p.name(), p.status(), p.apiKeyHash(), p.signingSecret(),
                        db(p.createdAt()), db(p.updatedAt()))))
                .replaceWithVoid();
    }

    public Uni<Void> update(SqlClient sql, PartnerRecord p) {
        return sql.preparedQuery("update partner set name = $2, status = $3, api_key_hash = $4, signing_secret = $5,"
                        + " updated_at = $6 where id = $1")
                .execute(Tuple.from(List.of(p.id(), p.name(), p.status(), p.apiKeyHash(), p.signingSecret(),
                        db(p.updatedAt()))))
                .replaceWithVoid();
    }

    private static PartnerRecord map(Row r) {
        return new PartnerRecord(r.getString("id"), r.getString("name"), r.getString("status"),
                r.getString("api_key_hash"), r.getString("signing_secret"),
                instant(r, "created_at"), instant(r, "updated_at"));
    }
}
