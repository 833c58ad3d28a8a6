package dev.agentpay.mandate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.commons.outbox.OutboxRelay;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.MandateEvents;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The outbox relay is woken by the commit itself (LISTEN/NOTIFY), not by its safety-net poll: with
 * the poll set to an hour, a new mandate's event still reaches Kafka within seconds.
 */
@QuarkusTest
@TestProfile(OutboxWakeTest.SlowPoll.class)
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class OutboxWakeTest {

    /** Poll so rarely that only a NOTIFY can explain a prompt publication. */
    public static class SlowPoll implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("platform.outbox.poll-interval", "1h");
        }
    }

    @Inject
    OutboxRelay relay;

    @Test
    void aCommitWakesTheRelay() {
        MandateEvents events = MandateEvents.get();
        Api.await(Duration.ofSeconds(20), relay::listening, "the relay's LISTEN connection");
        Api.TestPartner partner = Api.newPartner("wake");
        Api.TestMandate m = Api.create(partner);
        long t0 = System.nanoTime();
        assertThat(events.await(m.id(), 1)).hasSize(1);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
    }
}
