package dev.agentpay.anchor.support;

import dev.agentpay.commons.events.AnchorReceiptEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.localstack.testing.SharedServers;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The test's side of Kafka: publishes mandate events as mandate-service does (JSON value, key = mandate
 * id, event headers) and collects every anchor receipt published on {@code anchor-receipts}.
 */
public final class KafkaIo {

    /** A received receipt, when the test saw it, and its {@code traceparent} header (null if none). */
    public record Received(AnchorReceiptEvent event, Instant at, String traceparent) {
    }

    private static final SecureRandom RANDOM = new SecureRandom();
    private static KafkaProducer<String, String> producer;
    private static final Map<String, List<Received>> RECEIPTS = new ConcurrentHashMap<>();

    private KafkaIo() {
    }

    public static synchronized void startCollecting() {
        if (producer != null) {
            return;
        }
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedServers.kafka().bootstrapServers());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.LINGER_MS_CONFIG, "1");
        producer = new KafkaProducer<>(p);

        Properties c = new Properties();
        c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedServers.kafka().bootstrapServers());
        c.put(ConsumerConfig.GROUP_ID_CONFIG, "anchor-test-" + UUID.randomUUID());
        c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        Thread t = new Thread(() -> {
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c)) {
                consumer.subscribe(List.of(Topics.ANCHOR_RECEIPTS));
                while (true) {
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(50))) {
                        AnchorReceiptEvent e = EventCodec.decode(r.value(), AnchorReceiptEvent.class);
                        if (!e.aggregateId().equals(r.key())) {
                            throw new IllegalStateException("receipt keyed " + r.key() + " for mandate " + e.aggregateId());
                        }
                        RECEIPTS.computeIfAbsent(e.transitionId(), k -> new CopyOnWriteArrayList<>()).add(new Received(e, Instant.now(),
                                r.headers().lastHeader("traceparent") == null ? null
                                        : new String(r.headers().lastHeader("traceparent").value(), StandardCharsets.UTF_8)));
                    }
                }
            }
        }, "anchor-receipts-collector");
        t.setDaemon(true);
        t.start();
    }

    /** Every receipt seen for a transition (more than one would be a duplicate anchor). */
    public static List<Received> receipts(String transitionId) {
        return RECEIPTS.getOrDefault(transitionId, List.of());
    }

    public static String randomHash() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return "0x" + HexFormat.of().formatHex(b);
    }

    public static String mandateId() {
        return "mnd_" + UUID.randomUUID();
    }

    /** A mandate event as mandate-service publishes it. */
    public static MandateEvent event(String mandateId, String hash, String type, String from, String to) {
        return new MandateEvent(UUID.randomUUID(), type, mandateId, "ptn_test", Instant.now(), MandateEvent.SCHEMA_VERSION,
                "trn_" + UUID.randomUUID(), from, to, hash, null);
    }

    /** The transitions of one mandate through {@code states}, the first being the creation. */
    public static List<MandateEvent> flow(String mandateId, String hash, String... states) {
        List<MandateEvent> out = new ArrayList<>();
        String from = null;
        for (String s : states) {
            out.add(event(mandateId, hash, "mandate." + s, from, s));
            from = s;
        }
        return out;
    }

    public static void publish(MandateEvent e) {
        publishRaw(e.aggregateId(), EventCodec.encode(e), e.eventId(), e.type());
    }

    public static void publishRaw(String key, String json, UUID eventId, String type) {
        publishRaw(key, json, eventId, type, null);
    }

    /** Publishes as mandate-service's relay would, with a {@code traceparent} header when one is given. */
    public static void publishRaw(String key, String json, UUID eventId, String type, String traceparent) {
        ProducerRecord<String, String> r = new ProducerRecord<>(Topics.MANDATE_EVENTS, key, json);
        if (traceparent != null) {
            r.headers().add("traceparent", traceparent.getBytes(StandardCharsets.UTF_8));
        }
        r.headers().add("event-id", eventId.toString().getBytes(StandardCharsets.UTF_8));
        r.headers().add("event-type", type.getBytes(StandardCharsets.UTF_8));
        producer.send(r);
    }

    public static void flush() {
        producer.flush();
    }
}
