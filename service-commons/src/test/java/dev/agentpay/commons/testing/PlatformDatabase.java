package dev.agentpay.commons.testing;

import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.pgclient.PgPool;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.PoolOptions;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import org.flywaydb.core.Flyway;

/**
 * A real PostgreSQL (zonky binaries, as local-stack starts it) with the platform migrations
 * ({@code db/platform}) applied, and a reactive pool on it: for the outbox and consumer tests.
 */
public final class PlatformDatabase implements AutoCloseable {

    private final EmbeddedPostgres pg;
    private final Vertx vertx;
    private final Pool pool;

    private PlatformDatabase(EmbeddedPostgres pg) {
        this.pg = pg;
        Flyway.configure().dataSource(pg.getJdbcUrl("postgres", "postgres"), "postgres", "postgres")
                .locations("classpath:db/platform").load().migrate();
        this.vertx = Vertx.vertx();
        this.pool = PgPool.pool(vertx, new PgConnectOptions().setHost("localhost").setPort(pg.getPort())
                .setDatabase("postgres").setUser("postgres").setPassword("postgres"), new PoolOptions().setMaxSize(8));
    }

    public static PlatformDatabase start() {
        try {
            return new PlatformDatabase(EmbeddedPostgres.builder().setPGStartupWait(Duration.ofSeconds(60)).start());
        } catch (IOException e) {
            throw new UncheckedIOException("PostgreSQL did not start", e);
        }
    }

    public Pool pool() {
        return pool;
    }

    public Vertx vertx() {
        return vertx;
    }

    @Override
    public void close() throws IOException {
        pool.closeAndAwait();
        vertx.closeAndAwait();
        pg.close();
    }
}
