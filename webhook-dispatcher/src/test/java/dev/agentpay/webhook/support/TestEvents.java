package dev.agentpay.webhook.support;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.events.DomainEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.InvoiceEvent;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.commons.events.PlatformEvent;
import dev.agentpay.localstack.testing.TestKafka;
import java.time.Instant;
import java.util.UUID;

/** Produces input events to the real Kafka broker the way the other services do (EventCodec JSON, key = aggregate id). */
public final class TestEvents {

    private static TestKafka.Publisher publisher;

    private TestEvents() {
    }

    private static synchronized TestKafka.Publisher publisher() {
        if (publisher == null) {
            publisher = TestKafka.publisher();
        }
        return publisher;
    }

    /** Sends an event as the relays do (event headers) and waits for the broker's acknowledgement. */
    public static void send(DomainEvent e) {
        TestKafka.send(TestKafka.record(e));
    }

    /** Sends without waiting for the broker's acknowledgement (for volume); {@link #flush()} waits. */
    public static void sendAsync(DomainEvent e) {
        publisher().send(e);
    }

    public static void flush() {
        publisher().flush();
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
        return new MandateEvent(EventHeader.of(type, mandateId, partnerId, Instant.now(), MandateEvent.SCHEMA_VERSION),
                UUID.randomUUID().toString(), null, state, "0x" + "ab".repeat(32), row);
    }

    public static InvoiceEvent invoiceSettled(String invoiceId, String partnerId) {
        ObjectNode inv = EventCodec.mapper().createObjectNode();
        inv.put("id", invoiceId);
        inv.put("status", "SETTLED");
        inv.put("amount", "1.00");
        inv.put("chain", "base");
        return new InvoiceEvent(EventHeader.of(InvoiceEvent.SETTLED, invoiceId, partnerId, Instant.now(),
                InvoiceEvent.SCHEMA_VERSION), "SETTLED", inv);
    }

    public static PlatformEvent benchmarkPublished(String documentId) {
        ObjectNode doc = EventCodec.mapper().createObjectNode();
        doc.put("id", documentId);
        doc.put("atrr", 0.83);
        return new PlatformEvent(EventHeader.of(PlatformEvent.BENCHMARK_PUBLISHED, documentId, null, Instant.now(),
                PlatformEvent.SCHEMA_VERSION), doc);
    }
}
