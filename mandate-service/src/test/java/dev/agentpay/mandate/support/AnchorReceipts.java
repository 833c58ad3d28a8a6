package dev.agentpay.mandate.support;

import dev.agentpay.commons.events.AnchorReceiptEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.localstack.testing.SharedServers;
import dev.agentpay.mandate.support.Api.TestMandate;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/** Anchor receipts as anchor-service publishes them, sent to the real {@code anchor-receipts} topic. */
public final class AnchorReceipts {

    private AnchorReceipts() {
    }

    public static void send(AnchorReceiptEvent e) throws Exception {
        sendRaw(e.aggregateId(), EventCodec.encode(e), e.eventId().toString(), e.type());
    }

    /** Any payload, e.g. one no anchor-service could have written. */
    public static void sendRaw(String key, String payload, String eventId, String type) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedServers.kafka().bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            ProducerRecord<String, String> r = new ProducerRecord<>(Topics.ANCHOR_RECEIPTS, key, payload);
            r.headers().add("event-id", eventId.getBytes(StandardCharsets.UTF_8));
            r.headers().add("event-type", type.getBytes(StandardCharsets.UTF_8));
            producer.send(r).get();
        }
    }

    /** The receipt of transition {@code index} of {@code m} ({@code j}: the mandate as read). */
    public static AnchorReceiptEvent receipt(UUID eventId, TestMandate m, JsonPath j, int index, String txHash, long block) {
        return new AnchorReceiptEvent(eventId, AnchorReceiptEvent.TYPE, m.id(), m.owner().id(), Instant.now(), 1,
                j.getString("data.transitions[" + index + "].id"), j.getString("data.proto_mandate_hash"),
                j.getString("data.transitions[" + index + "].to_state"), 84532L, txHash, block, 0);
    }

    public static String tx(char c) {
        return "0x" + String.valueOf(c).repeat(64);
    }
}
