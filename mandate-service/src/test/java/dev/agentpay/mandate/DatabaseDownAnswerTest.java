package dev.agentpay.mandate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.localstack.PostgresServer;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.localstack.testing.SharedServers;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.Api.TestMandate;
import dev.agentpay.mandate.support.Api.TestPartner;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.time.Duration;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * Issue 33 item 7: while the service's own database refuses connections ({@code ALTER DATABASE ... ALLOW_CONNECTIONS
 * false}, existing sessions terminated), a read and a write answer {@code 503 service_unavailable} with
 * {@code Retry-After} (it was {@code 500 internal_error}); once the database is back they are served again.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class DatabaseDownAnswerTest {

    private static String database() {
        String url = ConfigProvider.getConfig().getValue("quarkus.datasource.jdbc.url", String.class);
        return url.substring(url.lastIndexOf('/') + 1);
    }

    @Test
    void aDatabaseOutageIs503WithRetryAfter() {
        TestPartner p = Api.newPartner("DbDown");
        TestMandate m = Api.create(p);
        PostgresServer pg = SharedServers.postgres();
        String db = database();
        pg.allowConnections(db, false);
        try {
            for (Response r : new Response[] {
                    p.as().get("/v1/mandates/" + m.id()),
                    p.as().contentType(ContentType.JSON).body(Api.createBody("a", "b", Api.inDays(2))).post("/v1/mandates")}) {
                assertThat(r.statusCode()).as(r.asString()).isEqualTo(503);
                assertThat(r.getHeader("Retry-After")).isEqualTo("5");
                assertThat(r.<Boolean>path("success")).isFalse();
                assertThat(r.<String>path("error.code")).isEqualTo("service_unavailable");
            }
        } finally {
            pg.allowConnections(db, true);
        }
        await("served again once the database is back").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .until(() -> p.as().get("/v1/mandates/" + m.id()).statusCode() == 200);
    }
}
