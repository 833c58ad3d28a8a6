package dev.agentpay.mandate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.MandateEvents;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Transaction;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The outbox relay is woken by the commit itself (in-process, after the transaction committed), not by
 * its safety-net poll: with the poll set to an hour, a new mandate's event still reaches Kafka within
 * seconds, also when another replica held the relay lock at the time of the commit. Neither uses a
 * database {@code NOTIFY}, whose queue lock serialized every writer's commit.
 */
@QuarkusTest
@TestProfile(OutboxWakeTest.SlowPoll.class)
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class OutboxWakeTest {

    /** The relay's advisory lock key ("outbox"), as another replica would take it. */
    private static final long RELAY_LOCK = 0x6f7574626f78L;

    /** Poll so rarely that only a wake-up can explain a prompt publication. */
    public static class SlowPoll implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("platform.outbox.poll-interval", "1h");
        }
    }

    @Inject
    Pool pool;

    @Test
    void aCommitWakesTheRelay() {
        MandateEvents events = MandateEvents.get();
        Api.TestPartner partner = Api.newPartner("wake");
        Api.TestMandate m = Api.create(partner);
        long t0 = System.nanoTime();
        assertThat(events.await(m.id(), 1)).hasSize(1);
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void aCommitMadeWhileAnotherReplicaRelaysIsPublishedOnceTheLockIsFree() throws Exception {
        MandateEvents events = MandateEvents.get();
        Api.TestPartner partner = Api.newPartner("wake-busy");
        SqlConnection other = pool.getConnection().await().atMost(Duration.ofSeconds(10));
        try {
            Transaction tx = other.begin().await().atMost(Duration.ofSeconds(10));
            other.preparedQuery("select pg_advisory_xact_lock($1)")
                    .execute(Tuple.of(RELAY_LOCK)).await().atMost(Duration.ofSeconds(10));
            Api.TestMandate m = Api.create(partner);
            await("nothing published while the other replica holds the relay lock").during(Duration.ofMillis(1500))
                    .atMost(Duration.ofSeconds(10)).until(() -> events.of(m.id()).isEmpty());
            tx.commit().await().atMost(Duration.ofSeconds(10));
            long t0 = System.nanoTime();
            assertThat(events.await(m.id(), 1)).hasSize(1);
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(10));
        } finally {
            other.closeAndAwait();
        }
    }
}
