package dev.agentpay.e2e;

import dev.agentpay.localstack.PostgresServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Read-only looks into the stack's PostgreSQL (port from {@code POSTGRES_PORT} in stack.env), as an auditor would. */
final class StackDb {

    private final int port;

    StackDb(Map<String, String> env) {
        this.port = Integer.parseInt(env.get("POSTGRES_PORT"));
    }

    Connection connect(String database) throws SQLException {
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + database,
                PostgresServer.USER, PostgresServer.PASSWORD);
    }

    List<String> databases() throws SQLException {
        return strings("postgres", "select datname from pg_database where not datistemplate and datname <> 'postgres'");
    }

    List<String> tables(String database) throws SQLException {
        return strings(database, "select quote_ident(table_schema) || '.' || quote_ident(table_name) from information_schema.tables"
                + " where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')");
    }

    /** Every row of a table as PostgreSQL's text form of the row. */
    List<String> rowsAsText(String database, String table) throws SQLException {
        return strings(database, "select t::text from " + table + " t");
    }

    List<String> strings(String database, String sql, Object... args) throws SQLException {
        try (Connection c = connect(database); PreparedStatement st = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                st.setObject(i + 1, args[i]);
            }
            List<String> out = new ArrayList<>();
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
            }
            return out;
        }
    }
}
