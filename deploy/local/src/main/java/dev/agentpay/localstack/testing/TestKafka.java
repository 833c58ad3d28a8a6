package dev.agentpay.localstack.testing;

import dev.agentpay.commons.events.DomainEvent;
import dev.agentpay.commons.events.EventCodec;
import io.smallrye.mutiny.operators.multi.processors.UnicastProcessor;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import io.smallrye.reactive.messaging.kafka.companion.ProducerTask;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.awaitility.Awaitility;

/**
 * The tests' side of Kafka, through Quarkus' {@link KafkaCompanion} rather than hand-built clients: one
 * companion per broker, records that carry the event headers every relay sets, an ordered publisher, and
 * collectors that read topics from their start in the background. Used by the services' tests (the
 * shared broker of {@link SharedServers}) and by the end-to-end tests (the launcher's broker).
 */
public final class TestKafka {

    private static final Duration API_TIMEOUT = Duration.ofSeconds(30);
    private static final Map<String, KafkaCompanion> COMPANIONS = new ConcurrentHashMap<>();

    private TestKafka() {
    }

    /** The companion of the shared test broker. */
    public static KafkaCompanion companion() {
        return companion(SharedServers.kafka().bootstrapServers());
    }

    /** The companion of a broker (kept for the life of the JVM). */
    public static KafkaCompanion companion(String bootstrapServers) {
        return COMPANIONS.computeIfAbsent(bootstrapServers, b -> new KafkaCompanion(b, API_TIMEOUT));
    }

    /** An event as a relay publishes it: key = aggregate id, EventCodec JSON, {@code event-id} and {@code event-type} headers. */
    public static ProducerRecord<String, String> record(DomainEvent e) {
        return record(e.topic(), e.aggregateId(), EventCodec.encode(e), e.eventId().toString(), e.type());
    }

    /** A record with the event headers (either may be null: left out). */
    public static ProducerRecord<String, String> record(String topic, String key, String value, String eventId, String type) {
        ProducerRecord<String, String> r = new ProducerRecord<>(topic, key, value);
        if (eventId != null) {
            r.headers().add("event-id", eventId.getBytes(StandardCharsets.UTF_8));
        }
        if (type != null) {
            r.headers().add("event-type", type.getBytes(StandardCharsets.UTF_8));
        }
        return r;
    }

    /** Sends records and waits until the broker acknowledged them all (in order). */
    @SafeVarargs
    public static void send(String bootstrapServers, ProducerRecord<String, String>... records) {
        companion(bootstrapServers).produceStrings().fromRecords(List.of(records)).awaitCompletion(API_TIMEOUT);
    }

    /** {@link #send(String, ProducerRecord[])} to the shared test broker. */
    @SafeVarargs
    public static void send(ProducerRecord<String, String>... records) {
        send(SharedServers.kafka().bootstrapServers(), records);
    }

    /**
     * Every record of {@code topics} from the earliest offset, read in the background under a fresh consumer
     * group until the JVM ends ({@link ConsumerTask#getRecords()} is what arrived so far).
     */
    public static ConsumerTask<String, String> collectAt(String bootstrapServers, String... topics) {
        return companion(bootstrapServers).consumeStrings()
                .withGroupId("test-" + UUID.randomUUID())
                .withOffsetReset("earliest")
                .fromTopics(Set.of(topics));
    }

    /** {@link #collectAt(String, String...)} on the shared test broker. */
    public static ConsumerTask<String, String> collect(String... topics) {
        return collectAt(SharedServers.kafka().bootstrapServers(), topics);
    }

    /** A header's value as text, or null. */
    public static String header(ConsumerRecord<?, ?> r, String name) {
        var h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    /** The shared broker's {@link Publisher}. */
    public static Publisher publisher() {
        return new Publisher(companion());
    }

    /**
     * Sends records in call order without waiting for each acknowledgement (for volume and for paced sends);
     * {@link #flush()} waits until every one is acknowledged. One producer task fed for the life of the JVM.
     */
    public static final class Publisher {

        private final UnicastProcessor<ProducerRecord<String, String>> queue = UnicastProcessor.create();
        private final ProducerTask task;
        private long sent;

        Publisher(KafkaCompanion companion) {
            task = companion.produceStrings().withProp(ProducerConfig.LINGER_MS_CONFIG, "1").fromMulti(queue);
        }

        public synchronized void send(ProducerRecord<String, String> r) {
            queue.onNext(r);
            sent++;
        }

        public void send(DomainEvent e) {
            send(record(e));
        }

        /** Waits until every record sent so far is acknowledged by the broker. */
        public void flush() {
            long target;
            synchronized (this) {
                target = sent;
            }
            Awaitility.await("the broker acknowledging " + target + " records").atMost(API_TIMEOUT).until(() -> task.count() >= target);
        }
    }
}
