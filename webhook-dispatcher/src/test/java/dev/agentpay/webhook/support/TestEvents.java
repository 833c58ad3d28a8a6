package dev.agentpay.webhook.support;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.events.DomainEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.InvoiceEvent;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.commons.events.PlatformEvent;
import dev.agentpay.localstack.testing.SharedServers;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/** Produces input events to the real Kafka broker the way the other services do (EventCodec JSON, key = aggregate id). */
public final class TestEvents {

    private static KafkaProducer<String, String> producer;

    private TestEvents() {
    }

    private static synchronized KafkaProducer<String, String> producer() {
        if (producer == null) {
            Properties p = new Properties();
            p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedServers.kafka().bootstrapServers());
            p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
            p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            p.put(ProducerConfig.LINGER_MS_CONFIG, "1");
            producer = new KafkaProducer<>(p);
        }
        return producer;
    }

    public static void send(DomainEvent e) {
        ProducerRecord<String, String> r = new ProducerRecord<>(e.topic(), e.aggregateId(), EventCodec.encode(e));
        r.headers().add("event-id", e.eventId().toString().getBytes(StandardCharsets.UTF_8));
        r.headers().add("event-type", e.type().getBytes(StandardCharsets.UTF_8));
        try {
            producer().send(r).get();
        } catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }

    /** Sends without waiting for the broker's acknowledgement (for volume). */
    public static void sendAsync(DomainEvent e) {
        producer().send(new ProducerRecord<>(e.topic(), e.aggregateId(), EventCodec.encode(e)));
    }

    public static void flush() {
        producer().flush();
    }

    public static MandateEvent mandate(String type, String mandateId, String partnerId) {
        String state = type.substring("mandate.".length());
        ObjectNode row = EventCodec.mapper().createObjectNode();
        row.put("id", mandateId);
        row.put("state", state);
        row.put("proposer", "agent-a");
        row.put("counterparty", "agent-b");
        row.put("amount", "12.50");
        row.put("note", "caf\u00e9 \u2713 unicode survives byte-exact signing");
        return new MandateEvent(UUID.randomUUID(), type, mandateId, partnerId, Instant.now(), MandateEvent.SCHEMA_VERSION,
                UUID.randomUUID().toString(), null, state, "0x" + "ab".repeat(32), row);
    }

    public static InvoiceEvent invoiceSettled(String invoiceId, String partnerId) {
        ObjectNode inv = EventCodec.mapper().createObjectNode();
        inv.put("id", invoiceId);
        inv.put("status", "SETTLED");
        inv.put("amount", "1.00");
        inv.put("chain", "base");
        return new InvoiceEvent(UUID.randomUUID(), InvoiceEvent.SETTLED, invoiceId, partnerId, Instant.now(),
                InvoiceEvent.SCHEMA_VERSION, "SETTLED", inv);
    }

    public static PlatformEvent benchmarkPublished(String documentId) {
        ObjectNode doc = EventCodec.mapper().createObjectNode();
        doc.put("id", documentId);
        doc.put("atrr", 0.83);
        return new PlatformEvent(UUID.randomUUID(), PlatformEvent.BENCHMARK_PUBLISHED, documentId, null, Instant.now(),
                PlatformEvent.SCHEMA_VERSION, doc);
    }
}
