package dev.agentpay.localstack;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * A real PostgreSQL server from the zonky binaries on Maven Central. With a data directory that
 * already holds a cluster, the server finds its data again.
 */
public final class PostgresServer implements AutoCloseable, Supervisor.Supervised {

    public static final String USER = "postgres";
    public static final String PASSWORD = "postgres";

    private final EmbeddedPostgres pg;
    private final long postmasterPid;

    private PostgresServer(EmbeddedPostgres pg, long postmasterPid) {
        this.pg = pg;
        this.postmasterPid = postmasterPid;
    }

    public static PostgresServer start(Path dataDir, int port) {
        return start(dataDir, port, false);
    }

    /**
     * @param durableCommits {@code synchronous_commit=on}: a commit is acknowledged only once its WAL is
     *        flushed. zonky turns it off by default, so a crashed server (kill -9) loses its last
     *        acknowledged commits, while their outbox rows may already have been published: the fault
     *        suite found exactly that. The launcher's stack is durable; test servers keep zonky's speed.
     */
    public static PostgresServer start(Path dataDir, int port, boolean durableCommits) {
        try {
            EmbeddedPostgres pg = EmbeddedPostgres.builder()
                    .setServerConfig("synchronous_commit", durableCommits ? "on" : "off")
                    .setDataDirectory(dataDir)
                    .setCleanDataDirectory(false)
                    .setPort(port)
                    .setPGStartupWait(Duration.ofSeconds(60))
                    .setServerConfig("max_connections", "400")
                    .setServerConfig("fsync", "on")
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    // zonky's own exit hook would stop the server at once, beside the launcher's ordered stop
                    .setRegisterShutdownHook(false)
                    .start();
            // pg_ctl starts the postmaster and exits: the server's pid is the first line of postmaster.pid.
            long pid = Long.parseLong(java.nio.file.Files.readAllLines(dataDir.resolve("postmaster.pid")).get(0).trim());
            PostgresServer server = new PostgresServer(pg, pid);
            ManagedProcess.stopAtExit("stop-postgres", server::close);
            return server;
        } catch (IOException e) {
            throw new IllegalStateException("PostgreSQL did not start: " + e.getMessage(), e);
        }
    }

    public int port() {
        return pg.getPort();
    }

    /** The postmaster's pid (its backends are its children). */
    @Override
    public long pid() {
        return postmasterPid;
    }

    @Override
    public boolean isAlive() {
        return ProcessHandle.of(postmasterPid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** Stops the server; after a crash this only releases the data directory's lock for a restart. */
    @Override
    public void stop() {
        close();
    }

    /** Creates the database unless it exists. */
    public void ensureDatabase(String name) {
        if (!name.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("bad database name " + name);
        }
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
            try (ResultSet rs = st.executeQuery("select 1 from pg_database where datname = '" + name + "'")) {
                if (rs.next()) {
                    return;
                }
            }
            st.execute("create database " + name);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot create database " + name, e);
        }
    }

    /**
     * An outage of one database while the server and the others stay up (fault tests): {@code false}
     * refuses new connections to {@code name} and ends the open ones; {@code true} lets them in again.
     */
    public void allowConnections(String name, boolean allow) {
        if (!name.matches("[a-z_][a-z0-9_]*")) {
            throw new IllegalArgumentException("bad database name " + name);
        }
        try (Connection c = pg.getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
            st.execute("alter database " + name + " allow_connections " + allow);
            if (!allow) {
                st.execute("select pg_terminate_backend(pid) from pg_stat_activity where datname = '" + name
                        + "' and pid <> pg_backend_pid()");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot change connections to " + name, e);
        }
    }

    public String jdbcUrl(String db) {
        return "jdbc:postgresql://127.0.0.1:" + port() + "/" + db;
    }

    public String reactiveUrl(String db) {
        return "postgresql://127.0.0.1:" + port() + "/" + db;
    }

    @Override
    public void close() {
        try {
            pg.close();
        } catch (IOException e) {
            // already stopped
        }
    }
}
