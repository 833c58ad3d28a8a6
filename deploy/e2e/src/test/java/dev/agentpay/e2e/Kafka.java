package dev.agentpay.e2e;

import static org.awaitility.Awaitility.await;

import dev.agentpay.localstack.testing.TestKafka;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import io.smallrye.reactive.messaging.kafka.companion.KafkaCompanion;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.awaitility.core.ConditionTimeoutException;

/** The launcher's Kafka seen from the tests (KafkaCompanion, {@link TestKafka}): reads topics, re-sends records as they are. */
final class Kafka {

    private Kafka() {
    }

    private static boolean matches(ConsumerRecord<String, String> r, String key, String eventType) {
        return key.equals(r.key()) && r.value().contains("\"type\":\"" + eventType + "\"");
    }

    /** Re-sends the records of {@code key} and {@code eventType}, headers and all: a duplicate delivery. Returns how many. */
    static int redeliver(String bootstrap, String topic, String key, String eventType) {
        List<ConsumerRecord<String, String>> found;
        try (ConsumerTask<String, String> records = TestKafka.collectAt(bootstrap, topic)) {
            found = await("a " + eventType + " record of " + key + " on " + topic).atMost(Duration.ofSeconds(30))
                    .until(() -> records.stream().filter(r -> matches(r, key, eventType)).toList(), l -> !l.isEmpty());
        }
        for (ConsumerRecord<String, String> r : found) {
            TestKafka.send(bootstrap, new ProducerRecord<>(topic, null, r.key(), r.value(), r.headers()));
        }
        return found.size();
    }

    /** One record as the checks need it. */
    record Rec(String key, String eventId, String value) {
    }

    /** Every record of a topic, read from the start to the current end of each partition. */
    static List<Rec> readAll(String bootstrap, String topic) {
        KafkaCompanion kafka = TestKafka.companion(bootstrap);
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
        kafka.topics().describe(topic).get(topic).partitions().forEach(p -> {
            earliest.put(new TopicPartition(topic, p.partition()), OffsetSpec.earliest());
            latest.put(new TopicPartition(topic, p.partition()), OffsetSpec.latest());
        });
        Map<TopicPartition, Long> from = new HashMap<>();
        kafka.offsets().list(earliest).forEach((tp, o) -> from.put(tp, o.offset()));
        long count = kafka.offsets().list(latest).entrySet().stream().mapToLong(e -> e.getValue().offset() - from.get(e.getKey())).sum();
        if (count == 0) {
            return List.of();
        }
        try (ConsumerTask<String, String> all = kafka.consumeStrings().withProp("max.poll.records", "5000")
                .fromOffsets(from, count).awaitCompletion(Duration.ofSeconds(120))) {
            return all.stream().map(r -> new Rec(r.key(), TestKafka.header(r, "event-id"), r.value())).toList();
        }
    }

    /** The value of {@code header} on the first record of {@code topic} with this key and event type, or null. */
    static String header(String bootstrap, String topic, String key, String eventType, String header, Duration timeout) {
        try (ConsumerTask<String, String> records = TestKafka.collectAt(bootstrap, topic)) {
            return await().atMost(timeout)
                    .until(() -> records.stream().filter(r -> matches(r, key, eventType)).findFirst(), Optional::isPresent)
                    .map(r -> TestKafka.header(r, header)).orElse(null);
        } catch (ConditionTimeoutException e) {
            return null;
        }
    }
}
