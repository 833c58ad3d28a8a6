package dev.agentpay.anchor.support;

import dev.agentpay.commons.events.AnchorReceiptEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.localstack.testing.TestKafka;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The test's side of Kafka: publishes mandate events as mandate-service does (JSON value, key = mandate
 * id, event headers) and collects every anchor receipt published on {@code anchor-receipts}.
 */
public final class KafkaIo {

    /** A received receipt, when it was published (the record's timestamp), and its {@code traceparent} header (null if none). */
    public record Received(AnchorReceiptEvent event, Instant at, String traceparent) {
    }

    private static final SecureRandom RANDOM = new SecureRandom();
    private static TestKafka.Publisher publisher;
    private static ConsumerTask<String, String> receipts;
    private static final Map<String, List<Received>> BY_TRANSITION = new ConcurrentHashMap<>();
    private static int indexed;

    private KafkaIo() {
    }

    public static synchronized void startCollecting() {
        if (publisher != null) {
            return;
        }
        publisher = TestKafka.publisher();
        receipts = TestKafka.collect(Topics.ANCHOR_RECEIPTS);
    }

    /** Every receipt seen for a transition (more than one would be a duplicate anchor). */
    public static List<Received> receipts(String transitionId) {
        return index().getOrDefault(transitionId, List.of());
    }

    /** The receipts collected so far by transition, decoding only what arrived since the last look. */
    private static synchronized Map<String, List<Received>> index() {
        List<ConsumerRecord<String, String>> all = receipts.getRecords();
        for (int i = indexed; i < all.size(); i++) {
            ConsumerRecord<String, String> r = all.get(i);
            AnchorReceiptEvent e = EventCodec.decode(r.value(), AnchorReceiptEvent.class);
            if (!e.aggregateId().equals(r.key())) {
                throw new AssertionError("receipt keyed " + r.key() + " for mandate " + e.aggregateId());
            }
            BY_TRANSITION.computeIfAbsent(e.transitionId(), k -> new CopyOnWriteArrayList<>())
                    .add(new Received(e, Instant.ofEpochMilli(r.timestamp()), TestKafka.header(r, "traceparent")));
        }
        indexed = all.size();
        return BY_TRANSITION;
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
        return new MandateEvent(EventHeader.of(type, mandateId, "ptn_test", Instant.now(), MandateEvent.SCHEMA_VERSION),
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
        ProducerRecord<String, String> r = TestKafka.record(Topics.MANDATE_EVENTS, key, json, eventId.toString(), type);
        if (traceparent != null) {
            r.headers().add("traceparent", traceparent.getBytes(StandardCharsets.UTF_8));
        }
        publisher.send(r);
    }

    public static void flush() {
        publisher.flush();
    }
}
