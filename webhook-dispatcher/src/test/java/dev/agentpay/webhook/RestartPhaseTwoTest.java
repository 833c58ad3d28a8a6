package dev.agentpay.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.commons.auth.ApiKeys;
import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.PartnerEvent;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.webhook.support.Api;
import dev.agentpay.webhook.support.SharedDatabaseResource;
import dev.agentpay.webhook.support.TestPartners.TestPartner;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Second life: a new application on the database {@link RestartPhaseOneTest} left behind delivers the
 * retry that was waiting in its backoff, once.
 */
@QuarkusTest
@TestProfile(RestartPhaseTwoTest.Profile.class)
@WithTestResource(SharedDatabaseResource.class)
@WithTestResource(KafkaTestResource.class)
class RestartPhaseTwoTest {

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("webhook.retry.schedule", "0s,10s,10s", "webhook.retry.disable-after", "1h");
        }
    }

    @Inject
    PartnerRegistry registry;

    @Test
    void theRestartedDispatcherDeliversTheWaitingRetry() {
        String logFile = System.getProperty("wht.restart.log");
        assertThat(logFile).as("RestartPhaseOneTest must run first (Quarkus orders profile tests by profile name)").isNotNull();
        TestPartner p = new TestPartner(System.getProperty("wht.restart.partner"),
                System.getProperty("wht.restart.key"));
        registry.apply(new PartnerEvent(EventHeader.of(PartnerEvent.TYPE, p.id(), p.id(), Instant.now(), 1), "test partner",
                PartnerEvent.ACTIVE, List.of(ApiKeys.hash(p.apiKey()))));
        String sub = System.getProperty("wht.restart.subscription");
        String event = System.getProperty("wht.restart.event");
        java.util.function.Supplier<List<String>> log = () -> {
            try {
                return java.nio.file.Files.readAllLines(java.nio.file.Path.of(logFile));
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        };
        await("the retried delivery").atMost(Duration.ofSeconds(40)).until(() -> log.get().size() >= 2);
        JsonPath j = await("the success recorded").atMost(Duration.ofSeconds(10)).until(() -> Api.deliveries(p, sub), d -> "succeeded".equals(d.getString("data[0].status")));
        assertThat(j.getInt("data[0].attemptCount")).isEqualTo(2);
        await("no third attempt").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(10)).until(() -> log.get().size() == 2);
        assertThat(log.get()).containsExactly("/restart " + event + " 1 503", "/restart " + event + " 2 200");
        JsonPath detail = Api.delivery(p, sub, j.getString("data[0].id"));
        assertThat(detail.getList("data.attempts.responseCode", Integer.class)).containsExactly(503, 200);
    }
}
