package dev.agentpay.webhook.delivery.messaging;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.commons.consumer.Consumer;
import dev.agentpay.commons.consumer.Consumers;
import dev.agentpay.commons.consumer.PoisonRecordException;
import dev.agentpay.commons.consumer.SourceRecord;
import dev.agentpay.commons.events.DomainEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.InvoiceEvent;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.commons.events.PlatformEvent;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.webhook.delivery.service.FanOutService;
import dev.agentpay.webhook.delivery.service.FanOutService.Input;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordBatchMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Consumes every event topic in poll batches and fans them out. The returned Uni completes after the
 * fan-out committed, so the offsets never move past an event that was not stored. The platform's consumer
 * discipline ({@link Consumers}): database failures are retried with back-off without limit instead of
 * skipping records; an undecodable record goes to the consumer's dead-letter topic.
 */
@ApplicationScoped
public class EventConsumer {

    public static final String MANDATE_CHANNEL = "mandate-events-in";
    public static final String INVOICE_CHANNEL = "invoice-events-in";
    public static final String PLATFORM_CHANNEL = "platform-events-in";

    static final Consumer MANDATES = new Consumer("webhook-dispatcher-mandate", Topics.DLT_WEBHOOK_MANDATE_EVENTS);
    static final Consumer INVOICES = new Consumer("webhook-dispatcher-invoice", Topics.DLT_WEBHOOK_INVOICE_EVENTS);
    static final Consumer PLATFORM = new Consumer("webhook-dispatcher-platform", Topics.DLT_WEBHOOK_PLATFORM_EVENTS);

    @Inject
    FanOutService fanOut;
    @Inject
    Consumers consumers;

    @Incoming(MANDATE_CHANNEL)
    public Uni<Void> onMandate(List<String> payloads, IncomingKafkaRecordBatchMetadata<String, String> batch) {
        return handle(MANDATES, payloads, batch, MandateEvent.class, MandateEvent::mandate, false);
    }

    @Incoming(INVOICE_CHANNEL)
    public Uni<Void> onInvoice(List<String> payloads, IncomingKafkaRecordBatchMetadata<String, String> batch) {
        return handle(INVOICES, payloads, batch, InvoiceEvent.class, InvoiceEvent::invoice, false);
    }

    /** Platform events have no owner: they go to every subscriber of their type. */
    @Incoming(PLATFORM_CHANNEL)
    public Uni<Void> onPlatform(List<String> payloads, IncomingKafkaRecordBatchMetadata<String, String> batch) {
        return handle(PLATFORM, payloads, batch, PlatformEvent.class, PlatformEvent::data, true);
    }

    private <T extends DomainEvent> Uni<Void> handle(Consumer consumer, List<String> payloads,
            IncomingKafkaRecordBatchMetadata<String, String> batch, Class<T> type, Function<T, JsonNode> data, boolean broadcast) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>(payloads.size());
        if (batch != null) {
            batch.getRecords().forEach(records::add);
        }
        boolean aligned = records.size() == payloads.size();
        List<Input> inputs = new ArrayList<>(payloads.size());
        List<Uni<Void>> deadLetters = new ArrayList<>();
        for (int i = 0; i < payloads.size(); i++) {
            String payload = payloads.get(i);
            SourceRecord source = aligned ? SourceRecord.of(records.get(i)) : SourceRecord.of(null, payload);
            T event;
            try {
                event = EventCodec.decode(payload, type);
            } catch (IllegalArgumentException e) {
                deadLetters.add(consumers.deadLetter(consumer, source,
                        new PoisonRecordException("undecodable " + type.getSimpleName() + ": " + e.getMessage(), e)));
                continue;
            }
            if (event.eventId() == null || event.type() == null || event.aggregateId() == null) {
                deadLetters.add(consumers.deadLetter(consumer, source,
                        new PoisonRecordException(type.getSimpleName() + " without id, type or aggregate id")));
                continue;
            }
            inputs.add(new Input(event, data.apply(event), broadcast));
        }
        Uni<Void> poisoned = Multi.createFrom().iterable(deadLetters).onItem().transformToUniAndConcatenate(u -> u)
                .collect().last().replaceWithVoid();
        if (inputs.isEmpty()) {
            return poisoned;
        }
        return poisoned.chain(() -> consumers.untilApplied(consumer, () -> fanOut.accept(inputs))).replaceWithVoid();
    }
}
