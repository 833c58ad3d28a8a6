package dev.agentpay.commons.outbox;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.PlatformEvent;
import dev.agentpay.commons.testing.PlatformDatabase;
import io.opentelemetry.api.OpenTelemetry;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.vertx.mutiny.sqlclient.Pool;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The relay against real PostgreSQL: commit order, keys and headers, batches, one relay per database. */
@org.junit.jupiter.api.Tag("servers") // starts PostgreSQL, Kafka or anvil: not in the fast tier (-Pfast)
class OutboxRelayTest {

    private static final Duration T = Duration.ofSeconds(10);
    private static PlatformDatabase db;
    private static Pool pool;

    /** What the emitter was given: key, event id header, payload. */
    record Sent(String topic, String key, String eventId, String payload) {
    }

    private final List<Sent> sent = new CopyOnWriteArrayList<>();
    private final Outbox outbox = new Outbox();
    private OutboxRelay relay;

    @BeforeAll
    static void start() {
        db = PlatformDatabase.start();
        pool = db.pool();
    }

    @AfterAll
    static void stop() throws Exception {
        db.close();
    }

    @BeforeEach
    void relay() {
        pool.query("delete from outbox_event").execute().await().atMost(T);
        relay = relay(3);
    }

    private OutboxRelay relay(int batchSize) {
        OutboxRelay r = new OutboxRelay();
        r.pool = pool;
        r.vertx = db.vertx();
        r.outbox = outbox;
        r.metrics = new OutboxMetrics();
        r.tracer = OpenTelemetry.noop().getTracer("test");
        r.config = config(batchSize);
        r.emitter = emitter();
        return r;
    }

    @SuppressWarnings("unchecked")
    private MutinyEmitter<String> emitter() {
        return (MutinyEmitter<String>) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {MutinyEmitter.class},
                (proxy, method, args) -> {
                    if (!method.getName().equals("sendMessage")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    Message<String> m = (Message<String>) args[0];
                    OutgoingKafkaRecordMetadata<String> meta = m.getMetadata(OutgoingKafkaRecordMetadata.class).orElseThrow();
                    sent.add(new Sent(meta.getTopic(), meta.getKey(),
                            new String(meta.getHeaders().lastHeader("event-id").value(), StandardCharsets.UTF_8), m.getPayload()));
                    return Uni.createFrom().voidItem();
                });
    }

    private static OutboxConfig config(int batchSize) {
        return new OutboxConfig() {
            public boolean relayEnabled() {
                return true;
            }

            public String pollInterval() {
                return "1s";
            }

            public Duration lockRetry() {
                return Duration.ofMillis(20);
            }

            public int batchSize() {
                return batchSize;
            }

            public Duration retention() {
                return Duration.ofDays(1);
            }

            public Duration idleTransactionTimeout() {
                return Duration.ofSeconds(1);
            }
        };
    }

    private static PlatformEvent event(String aggregate) {
        return new PlatformEvent(EventHeader.of(PlatformEvent.BENCHMARK_PUBLISHED, aggregate, null, Instant.now(), 1), null);
    }

    /** Appends each event in its own committed transaction, in list order. */
    private void commit(List<PlatformEvent> events) {
        for (PlatformEvent e : events) {
            pool.withTransaction(tx -> outbox.append(tx, e)).await().atMost(T);
        }
    }

    @Test
    void publishesCommittedRowsInCommitOrderKeyedByAggregateInBatchesAndMarksThem() {
        List<PlatformEvent> events = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            events.add(event(i % 2 == 0 ? "agg-even" : "agg-odd"));
        }
        commit(events);

        assertThat(relay.relayBatch().await().atMost(T)).isEqualTo(3);
        assertThat(relay.relayBatch().await().atMost(T)).isEqualTo(3);
        assertThat(relay.relayBatch().await().atMost(T)).isEqualTo(1);
        assertThat(relay.relayBatch().await().atMost(T)).as("nothing left").isZero();

        assertThat(sent).extracting(Sent::eventId).containsExactlyElementsOf(events.stream().map(e -> e.eventId().toString()).toList());
        assertThat(sent).extracting(Sent::key).containsExactlyElementsOf(events.stream().map(PlatformEvent::aggregateId).toList());
        assertThat(sent).allSatisfy(s -> assertThat(s.topic()).isEqualTo(new PlatformEvent(new EventHeader(null, null, null, null, null, 1), null).topic()));
        assertThat(pool.query("select count(*) from outbox_event where published_at is null").execute().await().atMost(T)
                .iterator().next().getLong(0)).isZero();
    }

    @Test
    void aSecondRelayOnTheSameDatabaseWaitsWhileTheFirstHoldsTheLock() {
        commit(List.of(event("agg")));
        OutboxRelay other = relay(3);
        int[] seenByOther = new int[1];
        // the first relay's transaction holds the advisory lock while the other one tries
        int published = pool.withTransaction(conn -> conn.preparedQuery("select pg_advisory_xact_lock($1)")
                        .execute(io.vertx.mutiny.sqlclient.Tuple.of(0x6f7574626f78L))
                        .chain(() -> other.relayBatch().invoke(n -> seenByOther[0] = n)))
                .chain(() -> relay.relayBatch())
                .await().atMost(T);
        assertThat(seenByOther[0]).isEqualTo(OutboxRelay.LOCK_BUSY);
        assertThat(published).isEqualTo(1);
        assertThat(sent).hasSize(1);
    }

    @Test
    void aRelayFrozenWhileHoldingTheLockLosesItToAnotherInstanceWithinSeconds() {
        commit(List.of(event("agg")));
        // the first relay freezes in the middle of its send (its broker acknowledgement never comes)
        OutboxRelay frozen = relay(3);
        frozen.emitter = neverAcknowledging();
        frozen.relayBatch().subscribe().with(x -> { }, f -> { });
        await("the frozen relay holds the lock").atMost(T).until(() -> relay.relayBatch().await().atMost(T) == OutboxRelay.LOCK_BUSY);
        Instant froze = Instant.now();
        // PostgreSQL ends the frozen relay's idle session (1 s here): this relay takes over and publishes the row
        await("another relay takes over").atMost(T).until(() -> relay.relayBatch().await().atMost(T) == 1);
        assertThat(Duration.between(froze, Instant.now())).isLessThan(Duration.ofSeconds(8));
        assertThat(sent).hasSize(1);
        assertThat(pool.query("select count(*) from outbox_event where published_at is null").execute().await().atMost(T)
                .iterator().next().getLong(0)).isZero();
    }

    @SuppressWarnings("unchecked")
    private MutinyEmitter<String> neverAcknowledging() {
        return (MutinyEmitter<String>) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {MutinyEmitter.class},
                (proxy, method, args) -> Uni.createFrom().nothing());
    }

    @Test
    void anEventCommittedWhileTheRelayRunsIsWokenAndPublishedWithoutAPoll() throws InterruptedException {
        relay.start(null);
        try {
            commit(List.of(event("woken-1"), event("woken-2")));
            await().atMost(T).until(() -> sent.size() >= 2);
            assertThat(sent).extracting(Sent::key).containsExactly("woken-1", "woken-2");
        } finally {
            relay.stop(null);
        }
    }
}
