package dev.agentpay.commons.error;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import jakarta.ws.rs.core.Response;
import java.net.ConnectException;
import org.junit.jupiter.api.Test;

/** A service whose own database is down answers 503 service_unavailable with Retry-After (issue 33 item 7). */
class DatabaseUnavailableTest {

    private final ErrorMappers mappers = new ErrorMappers();

    @Test
    void connectionFailuresAre503WithRetryAfter() {
        for (Throwable t : new Throwable[] {
                new PgException("database \"m\" is not currently accepting connections", "FATAL", "55000", null),
                new PgException("terminating connection due to administrator command", "FATAL", "57P01", null),
                new PgException("sorry, too many clients already", "FATAL", "53300", null),
                new PgException("connection failure", "FATAL", "08006", null),
                ClosedConnectionException.INSTANCE,
                new RuntimeException("wrapped", new ConnectException("Connection refused")),
                // PostgreSQL going down under a request in flight (mandate DatabaseDownAnswerTest once saw a 500 for this)
                new RuntimeException("wrapped", new java.net.SocketException("Connection reset"))}) {
            Response r = mappers.unexpected(t);
            assertThat(r.getStatus()).as("%s", t).isEqualTo(503);
            assertThat(r.getHeaderString("Retry-After")).isEqualTo("5");
            assertThat(r.getEntity().toString()).contains("service_unavailable");
        }
    }

    @Test
    void aFailedQueryIsStillAnInternalError() {
        for (Throwable t : new Throwable[] {
                new PgException("duplicate key value violates unique constraint", "ERROR", "23505", null),
                new PgException("syntax error", "ERROR", "42601", null),
                new IllegalStateException("bug")}) {
            Response r = mappers.unexpected(t);
            assertThat(r.getStatus()).as("%s", t).isEqualTo(500);
            assertThat(r.getHeaderString("Retry-After")).isNull();
        }
    }
}
