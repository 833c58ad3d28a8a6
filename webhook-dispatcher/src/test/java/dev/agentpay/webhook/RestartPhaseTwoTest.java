package dev.agentpay.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.commons.auth.ApiKeys;
import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.commons.events.PartnerEvent;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.webhook.support.Api;
import dev.agentpay.webhook.support.SharedDatabaseResource;
import dev.agentpay.webhook.support.TestPartners.TestPartner;
import dev.agentpay.webhook.support.TestReceiver;
import dev.agentpay.webhook.support.Wait;
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
import java.util.UUID;
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
            return Map.of("webhook.retry.schedule", "0s,10s,10s");
        }
    }

    @Inject
    PartnerRegistry registry;

    @Test
    void theRestartedDispatcherDeliversTheWaitingRetry() {
        String port = System.getProperty("wht.restart.port");
        assertThat(port).as("RestartPhaseOneTest must run first (Quarkus orders profile tests by profile name)").isNotNull();
        TestPartner p = new TestPartner(System.getProperty("wht.restart.partner"),
                System.getProperty("wht.restart.key"));
        registry.apply(new PartnerEvent(UUID.randomUUID(), PartnerEvent.TYPE, p.id(), p.id(), Instant.now(), 1, "test partner",
                PartnerEvent.ACTIVE, List.of(ApiKeys.hash(p.apiKey()))));
        String sub = System.getProperty("wht.restart.subscription");
        String event = System.getProperty("wht.restart.event");
        try (TestReceiver receiver = new TestReceiver(Integer.parseInt(port))) {
            Wait.until("the retried delivery", Duration.ofSeconds(40), () -> receiver.at("/restart").size() >= 1);
            JsonPath log = Wait.until("the success recorded", Duration.ofSeconds(10), () -> Api.deliveries(p, sub),
                    j -> "succeeded".equals(j.getString("data[0].status")));
            assertThat(log.getInt("data[0].attemptCount")).isEqualTo(2);
            Wait.sleep(2000);
            assertThat(receiver.at("/restart")).hasSize(1);
            assertThat(receiver.at("/restart").get(0).header("webhook-id")).isEqualTo(event);
            assertThat(receiver.at("/restart").get(0).header("x-service-attempt")).isEqualTo("2");
        }
    }
}
