package dev.agentpay.mandate;

import static dev.agentpay.mandate.support.AnchorReceipts.receipt;
import static dev.agentpay.mandate.support.AnchorReceipts.send;
import static dev.agentpay.mandate.support.AnchorReceipts.sendRaw;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.commons.consumer.Consumers;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.localstack.PostgresServer;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.localstack.testing.SharedServers;
import dev.agentpay.localstack.testing.TestKafka;
import dev.agentpay.mandate.support.Api.TestMandate;
import dev.agentpay.mandate.support.Api.TestPartner;
import dev.agentpay.mandate.support.Api;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * The consumer discipline under a partial outage (issue 16): mandate-service's database refuses every
 * connection while anchor receipts keep arriving. The consumer retries without limit (it used to give up
 * after 30 tries and fail its channel for good), readiness reports it stalled, and once the database is
 * back every receipt is applied, with no restart, and readiness is UP again. A malformed record meanwhile
 * goes to the dead-letter topic with its reason. The outage lasts {@code -Doutage.seconds} (20 by default
 * in CI; run by hand with 360 and more).
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class DatabaseOutageTest {

    private static final Duration OUTAGE = Duration.ofSeconds(Long.getLong("outage.seconds", 20));

    private static String database() {
        String url = ConfigProvider.getConfig().getValue("quarkus.datasource.jdbc.url", String.class);
        return url.substring(url.lastIndexOf('/') + 1);
    }

    private static String consumersCheck() {
        JsonPath health = given().get("/q/health/ready").jsonPath();
        return health.getString("checks.find { it.name == 'consumers' }.status");
    }

    private static double retries() {
        String metrics = given().get("/q/metrics").asString();
        return metrics.lines().filter(l -> l.startsWith("consumer_retries_total{") && l.contains("mandate-service.anchor-receipts"))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    @Test
    void receiptsArrivingWhileTheDatabaseRefusesConnectionsAreAllAppliedWhenItReturns() throws Exception {
        TestPartner p = Api.newPartner("Outage");
        List<TestMandate> mandates = new ArrayList<>();
        List<JsonPath> read = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            TestMandate m = Api.signedByBoth(p);
            mandates.add(m);
            read.add(Api.get(m).jsonPath());
        }
        String poisonMark = "poison-" + UUID.randomUUID();
        PostgresServer pg = SharedServers.postgres();
        String db = database();
        double retriesBefore = retries();
        Instant down = Instant.now();
        pg.allowConnections(db, false);
        try {
            for (int i = 0; i < mandates.size(); i++) {
                for (int t = 1; t <= 2; t++) {
                    send(receipt(UUID.randomUUID(), mandates.get(i), read.get(i), t, txHash(i, t), 1000 + i * 10 + t));
                }
            }
            sendRaw(mandates.get(0).id(), "{\"not\":\"a receipt\",\"mark\":\"" + poisonMark + "\"}", UUID.randomUUID().toString(),
                    "mandate.anchored");
            // the consumer keeps trying (counted) and reports itself stalled
            await("retries counted during the outage").atMost(Duration.ofSeconds(60)).until(() -> retries() >= retriesBefore + 3);
            await("readiness reporting the stalled consumer").atMost(Duration.ofSeconds(60)).until(() -> "DOWN".equals(consumersCheck()));
            // the outage itself lasts OUTAGE (its length is the scenario); readiness stays DOWN all along
            Duration left = OUTAGE.minus(Duration.between(down, Instant.now()));
            if (!left.isNegative()) {
                await("readiness DOWN for the rest of the outage").during(left).atMost(left.plusSeconds(10))
                        .until(() -> "DOWN".equals(consumersCheck()));
            }
            assertThat(consumersCheck()).isEqualTo("DOWN");
        } finally {
            pg.allowConnections(db, true);
        }
        // within 90 s of the database's return, every receipt is applied and readiness is UP, without a restart
        await("every receipt sent during the outage applied").atMost(Duration.ofSeconds(90)).until(() -> {
            for (int i = 0; i < mandates.size(); i++) {
                JsonPath j = Api.get(mandates.get(i)).jsonPath();
                for (int t = 1; t <= 2; t++) {
                    if (!txHash(i, t).equals(j.getString("data.transitions[" + t + "].anchor_tx_hash"))) {
                        return false;
                    }
                }
            }
            return true;
        });
        await("readiness UP again").atMost(Duration.ofSeconds(30)).until(() -> "UP".equals(consumersCheck()));
        given().get("/q/health/ready").then().statusCode(200);

        ConsumerRecord<String, String> dead = deadLetter(poisonMark);
        assertThat(TestKafka.header(dead, Consumers.H_TOPIC)).isEqualTo(Topics.ANCHOR_RECEIPTS);
        assertThat(TestKafka.header(dead, Consumers.H_CONSUMER)).isEqualTo("mandate-service.anchor-receipts");
        assertThat(TestKafka.header(dead, Consumers.H_REASON)).startsWith("malformed anchor receipt");
        assertThat(Long.parseLong(TestKafka.header(dead, Consumers.H_OFFSET))).isNotNegative();
        assertThat(TestKafka.header(dead, "event-type")).isEqualTo("mandate.anchored");
        assertThat(dead.key()).isEqualTo(mandates.get(0).id());
    }

    private static String txHash(int mandate, int transition) {
        return "0x" + Integer.toHexString(0xa0 + mandate * 16 + transition).repeat(32);
    }

    /** Reads the consumer's dead-letter topic from the start until the record carrying {@code mark}. */
    private static ConsumerRecord<String, String> deadLetter(String mark) {
        try (ConsumerTask<String, String> dlt = TestKafka.collect(Topics.DLT_MANDATE_ANCHOR_RECEIPTS)) {
            return await("a dead letter carrying " + mark).atMost(Duration.ofSeconds(30))
                    .until(() -> dlt.stream().filter(r -> r.value().contains(mark)).findFirst(), Optional::isPresent).orElseThrow();
        }
    }
}
