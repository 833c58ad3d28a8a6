package dev.agentpay.mandate.support;

import org.awaitility.Awaitility;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.localstack.testing.SharedServers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads {@code mandate-events} from the real broker with a plain KafkaConsumer on a background thread
 * and indexes what arrives by record key (the mandate id).
 */
public final class MandateEvents {

    /** One record as it arrived: key, headers and the decoded event. */
    public record Received(String key, String headerEventId, String headerType, MandateEvent event, JsonNode raw,
            String headerTraceparent) {
    }

    private static MandateEvents instance;

    private final Map<String, List<Received>> byKey = new ConcurrentHashMap<>();

    private MandateEvents() {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedServers.kafka().bootstrapServers());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "mandate-test-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        Thread t = new Thread(() -> {
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props)) {
                consumer.subscribe(List.of(Topics.MANDATE_EVENTS));
                while (true) {
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                        MandateEvent e = EventCodec.decode(r.value(), MandateEvent.class);
                        JsonNode raw;
                        try {
                            raw = EventCodec.mapper().readTree(r.value());
                        } catch (Exception ex) {
                            throw new IllegalStateException(ex);
                        }
                        byKey.computeIfAbsent(r.key(), k -> new CopyOnWriteArrayList<>())
                                .add(new Received(r.key(), header(r, "event-id"), header(r, "event-type"), e, raw,
                                        header(r, "traceparent")));
                    }
                }
            }
        }, "test-mandate-events");
        t.setDaemon(true);
        t.start();
    }

    public static synchronized MandateEvents get() {
        if (instance == null) {
            instance = new MandateEvents();
        }
        return instance;
    }

    /** Waits (bounded) until at least {@code count} events of the mandate arrived; returns them in arrival order. */
    public List<Received> await(String mandateId, int count) {
        Awaitility.await(count + " event(s) of " + mandateId).atMost(Duration.ofSeconds(20)).until(() -> of(mandateId).size() >= count);
        return of(mandateId);
    }

    public List<Received> of(String mandateId) {
        return new ArrayList<>(byKey.getOrDefault(mandateId, List.of()));
    }

    private static String header(ConsumerRecord<String, String> r, String name) {
        var h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
