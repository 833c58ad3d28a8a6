package dev.agentpay.mandate.escrow.messaging;

import dev.agentpay.commons.consumer.Consumer;
import dev.agentpay.commons.consumer.Consumers;
import dev.agentpay.commons.consumer.SourceRecord;
import dev.agentpay.commons.events.EscrowEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.mandate.escrow.service.EscrowService;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * settlement-watcher's {@code escrow-events} (issue 30), applied once each ({@link EscrowService}: the event id and
 * the effect commit together). The platform's consumer discipline ({@link Consumers}): a failure is retried without
 * limit, a record that cannot be decoded (or lacks what it needs) goes to {@link Topics#DLT_MANDATE_ESCROW_EVENTS}.
 */
@ApplicationScoped
public class EscrowEventsConsumer {

    /** Incoming channel bound to {@code escrow-events}. */
    public static final String CHANNEL = "escrow-events-in";
    /** Name under which processed event ids are recorded. */
    public static final String CONSUMER = "mandate-service.escrow-events";
    static final Consumer DISCIPLINE = new Consumer(CONSUMER, Topics.DLT_MANDATE_ESCROW_EVENTS);

    @Inject
    EscrowService service;

    @Inject
    Consumers consumers;

    @Incoming(CHANNEL)
    public Uni<Void> onEscrowEvent(String payload, IncomingKafkaRecordMetadata<String, String> meta) {
        return consumers.decodeThenApply(DISCIPLINE, SourceRecord.of(meta, payload), "malformed escrow event: ", () -> {
            EscrowEvent event = EventCodec.decode(payload, EscrowEvent.class);
            EscrowService.validate(event);
            return event;
        }, event -> service.applyOnce(event, CONSUMER));
    }
}
