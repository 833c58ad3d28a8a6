package dev.agentpay.mandate.support;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.localstack.testing.TestKafka;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;

/**
 * Reads {@code mandate-events} from the real broker in the background (KafkaCompanion, {@link TestKafka})
 * and indexes what arrives by record key (the mandate id).
 */
public final class MandateEvents {

    /** One record as it arrived: key, headers and the decoded event. */
    public record Received(String key, String headerEventId, String headerType, MandateEvent event, JsonNode raw,
            String headerTraceparent) {
    }

    private static MandateEvents instance;

    private final Map<String, List<Received>> byKey = new ConcurrentHashMap<>();
    private final ConsumerTask<String, String> records = TestKafka.collect(Topics.MANDATE_EVENTS);
    private int indexed;

    private MandateEvents() {
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
        return new ArrayList<>(index().getOrDefault(mandateId, List.of()));
    }

    /** What arrived so far by record key, decoding only what is new since the last look. */
    private synchronized Map<String, List<Received>> index() {
        List<ConsumerRecord<String, String>> all = records.getRecords();
        for (int i = indexed; i < all.size(); i++) {
            ConsumerRecord<String, String> r = all.get(i);
            JsonNode raw;
            try {
                raw = EventCodec.mapper().readTree(r.value());
            } catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
            byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(new Received(r.key(), TestKafka.header(r, "event-id"),
                    TestKafka.header(r, "event-type"), EventCodec.decode(r.value(), MandateEvent.class), raw,
                    TestKafka.header(r, "traceparent")));
        }
        indexed = all.size();
        return byKey;
    }
}
