package dev.agentpay.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.webhook.support.Api;
import dev.agentpay.webhook.support.SharedDatabaseResource;
import dev.agentpay.webhook.support.TestEvents;
import dev.agentpay.webhook.support.TestPartners.TestPartner;
import dev.agentpay.webhook.support.TestPartners;
import dev.agentpay.webhook.support.TestReceiver.Answer;
import dev.agentpay.webhook.support.TestReceiver;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * First life of the dispatcher in the restart scenario: the receiver fails the first attempt, so the
 * delivery waits in the database for its 10 s backoff when this application stops.
 * {@link RestartPhaseTwoTest} starts a new application on the same database; Quarkus orders profile tests by
 * profile class name, so this one (RestartPhaseOneTest$Profile) runs first.
 */
@QuarkusTest
@TestProfile(RestartPhaseOneTest.Profile.class)
@WithTestResource(SharedDatabaseResource.class)
@WithTestResource(KafkaTestResource.class)
class RestartPhaseOneTest {

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("webhook.retry.schedule", "0s,10s", "webhook.retry.disable-after", "1h");
        }
    }

    static final String SECRET = "restart-Secret-0123456789abc";

    @Inject
    PartnerRegistry registry;

    @Test
    void firstAttemptFailsAndTheRetryWaitsInTheDatabase() throws Exception {
        // The receiver outlives this application (it answers the retry in phase two); its request log is
        // handed over as a file because the next application loads test classes afresh.
        TestReceiver receiver = new TestReceiver();
        java.nio.file.Path logFile = java.nio.file.Files.createTempFile("restart-receiver", ".log");
        receiver.logTo(logFile);
        System.setProperty("wht.restart.log", logFile.toString());
        {
            String path = "/restart";
            receiver.script(path, Answer.of(503));
            TestPartner p = TestPartners.register(registry);
            String sub = Api.subscribe(p, receiver.url(path), List.of("mandate.proposed"), SECRET);
            MandateEvent e = TestEvents.mandate("mandate.proposed", "mnd_" + UUID.randomUUID(), p.id());
            TestEvents.send(e);
            await("the first attempt").atMost(Duration.ofSeconds(30)).until(() -> receiver.at(path).size() == 1);
            JsonPath log = await("the failure recorded").atMost(Duration.ofSeconds(10)).until(() -> Api.deliveries(p, sub), j -> j.getInt("data[0].attemptCount") == 1);
            assertThat(log.getString("data[0].status")).isEqualTo("pending");
            assertThat(OffsetDateTime.parse(log.getString("data[0].nextAttemptAt"))).isAfter(OffsetDateTime.now());
            System.setProperty("wht.restart.partner", p.id());
            System.setProperty("wht.restart.key", p.apiKey());
            System.setProperty("wht.restart.subscription", sub);
            System.setProperty("wht.restart.event", e.eventId().toString());
        }
    }
}
