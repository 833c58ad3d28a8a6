package dev.agentpay.mandate;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.support.Api;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The outbox backlog, its publications and the consumers' lag are visible in {@code /q/metrics}. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class OutboxMetricsTest {

    private static final Pattern PUBLISHED = Pattern.compile("(?m)^agentpay_outbox_published_total(?:\\{[^}]*})? ([0-9.E+]+)$");

    @Test
    void publicationsBacklogAndConsumerLagAreExposed() {
        double before = published(given().get("/q/metrics").asString());
        Api.create(Api.newPartner("Metrics"));
        await("the partner and mandate events counted as published").atMost(Duration.ofSeconds(20)).until(() -> published(given().get("/q/metrics").asString()) >= before + 2);
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metrics).containsPattern("(?m)^agentpay_outbox_backlog(\\{[^}]*})? [0-9.E+]+$")
                .containsPattern("(?m)^agentpay_outbox_oldest_pending_seconds(\\{[^}]*})? [0-9.E+]+$")
                .contains("kafka_consumer_fetch_manager_records_lag_max");
    }

    private static double published(String metrics) {
        Matcher m = PUBLISHED.matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }
}
