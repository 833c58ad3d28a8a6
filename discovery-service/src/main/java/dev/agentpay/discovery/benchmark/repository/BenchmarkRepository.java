package dev.agentpay.discovery.benchmark.repository;

import dev.agentpay.commons.sql.Rows;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

/** Published benchmarks (table {@code benchmark}). */
@ApplicationScoped
public class BenchmarkRepository {

    /** One stored benchmark without its raw logs. */
    public record Stored(String id, BigDecimal score, String document, Instant publishedAt) {
    }

    public Uni<Void> insert(SqlClient tx, String id, BigDecimal score, String document, String rawLogs, Instant at) {
        return tx.preparedQuery("insert into benchmark (id, score, document, raw_logs, published_at) values ($1, $2, $3, $4, $5)")
                .execute(Tuple.of(id, score, document, rawLogs, OffsetDateTime.ofInstant(at, ZoneOffset.UTC)))
                .replaceWithVoid();
    }

    /** The most recent {@code limit} benchmarks, newest first. */
    public Uni<List<Stored>> latest(SqlClient c, int limit) {
        return c.preparedQuery("select id, score, document, published_at from benchmark order by seq desc limit $1")
                .execute(Tuple.of(limit))
                .map(rs -> Rows.list(rs, r -> new Stored(r.getString("id"), r.getBigDecimal("score"), r.getString("document"),
                                r.getOffsetDateTime("published_at").toInstant())));
    }

    public Uni<Optional<String>> rawLogs(SqlClient c, String id) {
        return c.preparedQuery("select raw_logs from benchmark where id = $1").execute(Tuple.of(id))
                .map(rs -> rs.size() == 0 ? Optional.empty() : Optional.of(rs.iterator().next().getString("raw_logs")));
    }
}
