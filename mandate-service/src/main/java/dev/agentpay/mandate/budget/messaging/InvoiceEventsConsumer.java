package dev.agentpay.mandate.budget.messaging;

import dev.agentpay.commons.consumer.Consumer;
import dev.agentpay.commons.consumer.Consumers;
import dev.agentpay.commons.consumer.IdempotentConsumer;
import dev.agentpay.commons.consumer.SourceRecord;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.InvoiceEvent;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.mandate.budget.service.BudgetService;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Moves charges with their invoices: {@code invoice.settled} spends a charge's reservation, {@code invoice.expired}
 * releases it ({@link BudgetService#applyInvoiceEventOnce}). Only events of invoices made for a charge (the Invoice
 * object carries {@code chargeId}) are decoded and applied; each applies once (its event id and the effect commit
 * together, {@link BudgetService#applyInvoiceEventOnce}, {@link IdempotentConsumer}). The platform's consumer discipline ({@link Consumers}): a failure is
 * retried without limit, a record that cannot be decoded goes to {@link Topics#DLT_MANDATE_INVOICE_EVENTS}.
 */
@ApplicationScoped
public class InvoiceEventsConsumer {

    /** Incoming channel bound to {@code invoice-events}. */
    public static final String CHANNEL = "invoice-events-in";
    /** Name under which processed event ids are recorded. */
    public static final String CONSUMER = "mandate-service.invoice-events";
    static final Consumer DISCIPLINE = new Consumer(CONSUMER, Topics.DLT_MANDATE_INVOICE_EVENTS);

    @Inject
    BudgetService budgets;

    @Inject
    Consumers consumers;

    @Incoming(CHANNEL)
    public Uni<Void> onInvoiceEvent(String payload, IncomingKafkaRecordMetadata<String, String> meta) {
        // most invoices are not charges: skip them without decoding
        if (payload == null || !payload.contains("\"chargeId\"")
                || !(payload.contains(InvoiceEvent.SETTLED) || payload.contains(InvoiceEvent.EXPIRED))) {
            return Uni.createFrom().voidItem();
        }
        return consumers.decodeThenApply(DISCIPLINE, SourceRecord.of(meta, payload), "malformed invoice event: ", () -> {
            InvoiceEvent event = EventCodec.decode(payload, InvoiceEvent.class);
            if (event.eventId() == null || event.aggregateId() == null || event.type() == null) {
                throw new IllegalArgumentException("no event id, type or invoice id");
            }
            return event;
        }, event -> InvoiceEvent.SETTLED.equals(event.type()) || InvoiceEvent.EXPIRED.equals(event.type())
                ? budgets.applyInvoiceEventOnce(event, CONSUMER)
                : Uni.createFrom().voidItem());
    }
}
