package dev.agentpay.e2e;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** Reads a topic from the start and re-sends chosen records as they are: a duplicate delivery. */
final class Kafka {

    private Kafka() {
    }

    static int redeliver(String bootstrap, String topic, String key, String eventType) {
        Properties c = new Properties();
        c.put("bootstrap.servers", bootstrap);
        c.put("group.id", "e2e-" + UUID.randomUUID());
        c.put("auto.offset.reset", "earliest");
        c.put("enable.auto.commit", "false");
        int sent = 0;
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer());
                KafkaProducer<String, String> producer = producer(bootstrap)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (System.nanoTime() < deadline && sent == 0) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    if (key.equals(r.key()) && r.value().contains("\"type\":\"" + eventType + "\"")) {
                        ProducerRecord<String, String> copy = new ProducerRecord<>(topic, null, r.key(), r.value(), r.headers());
                        producer.send(copy).get();
                        sent++;
                    }
                }
            }
        } catch (Exception e) {
            throw new AssertionError("redelivery failed", e);
        }
        return sent;
    }

    /** One record as the checks need it. */
    record Rec(String key, String eventId, String value) {
    }

    /** Every record of a topic, read from the start to the current end of each partition. */
    static List<Rec> readAll(String bootstrap, String topic) {
        Properties c = new Properties();
        c.put("bootstrap.servers", bootstrap);
        c.put("enable.auto.commit", "false");
        c.put("max.poll.records", "5000");
        List<Rec> out = new java.util.ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            List<org.apache.kafka.common.TopicPartition> parts = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(p -> new org.apache.kafka.common.TopicPartition(topic, p.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            var end = consumer.endOffsets(parts, Duration.ofSeconds(30));
            long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
            while (parts.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("could not read " + topic + " to its end");
                }
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    var h = r.headers().lastHeader("event-id");
                    out.add(new Rec(r.key(), h == null ? null : new String(h.value(), java.nio.charset.StandardCharsets.UTF_8), r.value()));
                }
            }
        }
        return out;
    }

    /** The value of {@code header} on the first record of {@code topic} with this key and event type, or null. */
    static String header(String bootstrap, String topic, String key, String eventType, String header, Duration timeout) {
        Properties c = new Properties();
        c.put("bootstrap.servers", bootstrap);
        c.put("group.id", "e2e-" + UUID.randomUUID());
        c.put("auto.offset.reset", "earliest");
        c.put("enable.auto.commit", "false");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(500))) {
                    if (key.equals(r.key()) && r.value().contains("\"type\":\"" + eventType + "\"")) {
                        var h = r.headers().lastHeader(header);
                        return h == null ? null : new String(h.value(), java.nio.charset.StandardCharsets.UTF_8);
                    }
                }
            }
        }
        return null;
    }

    private static KafkaProducer<String, String> producer(String bootstrap) {
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("acks", "all");
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }
}
