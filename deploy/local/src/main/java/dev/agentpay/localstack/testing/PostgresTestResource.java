package dev.agentpay.localstack.testing;

import dev.agentpay.localstack.PostgresServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;
import java.util.UUID;

/**
 * Gives each started application a fresh database on the JVM's shared real PostgreSQL server, so
 * test profiles never see each other's rows.
 */
public class PostgresTestResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        PostgresServer pg = SharedServers.postgres();
        String db = "t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        pg.ensureDatabase(db);
        return Map.of(
                "quarkus.datasource.reactive.url", pg.reactiveUrl(db),
                "quarkus.datasource.jdbc.url", pg.jdbcUrl(db),
                "quarkus.datasource.username", PostgresServer.USER,
                "quarkus.datasource.password", PostgresServer.PASSWORD);
    }

    @Override
    public void stop() {
        // the server outlives one application; it stops with the JVM
    }
}
