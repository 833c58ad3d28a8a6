package dev.agentpay.webhook.support;

import dev.agentpay.localstack.PostgresServer;
import dev.agentpay.localstack.testing.SharedServers;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;
import java.util.UUID;

/**
 * One database for several application starts in a test JVM, so a restarted application finds the
 * state the previous one left (the restart tests). The name is kept in a system property because test
 * classes are reloaded with every application start.
 */
public class SharedDatabaseResource implements QuarkusTestResourceLifecycleManager {

    private static final String PROPERTY = "wht.shared-db";

    @Override
    public Map<String, String> start() {
        // Test resources are reloaded with each application too (and with them the shared servers), so the
        // first start's connection URLs are what later starts reuse: that PostgreSQL runs until the JVM exits.
        synchronized (System.class) {
            if (System.getProperty(PROPERTY + ".reactive") == null) {
                PostgresServer pg = SharedServers.postgres();
                String db = "r_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
                pg.ensureDatabase(db);
                System.setProperty(PROPERTY + ".reactive", pg.reactiveUrl(db));
                System.setProperty(PROPERTY + ".jdbc", pg.jdbcUrl(db));
            }
            return Map.of(
                    "quarkus.datasource.reactive.url", System.getProperty(PROPERTY + ".reactive"),
                    "quarkus.datasource.jdbc.url", System.getProperty(PROPERTY + ".jdbc"),
                    "quarkus.datasource.username", PostgresServer.USER,
                    "quarkus.datasource.password", PostgresServer.PASSWORD);
        }
    }

    @Override
    public void stop() {
        // the database outlives one application on purpose
    }
}
