package dev.agentpay.webhook.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.events.DomainEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.outbox.IdempotentConsumer;
import dev.agentpay.webhook.repository.DeliveryRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.UUID;

/**
 * Turns one input event into pending deliveries: the envelope, one delivery row per matching
 * subscription and the processed-event mark commit in one transaction, so a redelivered Kafka record
 * fans out once. The worker is woken after the commit.
 */
@ApplicationScoped
public class FanOutService {

    /** The consumer name of the processed-event ledger. */
    public static final String CONSUMER = "webhook-dispatcher";

    private final DeliveryRepository deliveries;
    private final IdempotentConsumer idempotent;
    private final DeliveryWorker worker;

    public FanOutService(DeliveryRepository deliveries, IdempotentConsumer idempotent, DeliveryWorker worker) {
        this.deliveries = deliveries;
        this.idempotent = idempotent;
        this.worker = worker;
    }

    /**
     * Fans out {@code event} with {@code data} as the envelope's data. {@code broadcast} events go to
     * every subscriber of the type; any other event only to its owning partner's subscriptions (an
     * event without owner then reaches nobody). Emits whether this call did the fan-out.
     */
    public Uni<Boolean> accept(DomainEvent event, JsonNode data, boolean broadcast) {
        String body = envelope(event.eventId(), event.type(), data, event.occurredAt());
        String orderingKey = event.topic() + ":" + event.aggregateId();
        return deliveries.pool()
                .withTransaction(tx -> idempotent.once(tx, event.eventId(), CONSUMER,
                        t -> deliveries.fanOut(t, event.eventId(), event.type(), event.aggregateId(), event.partnerId(),
                                broadcast, orderingKey, body, null)))
                .invoke(done -> worker.wake());
    }

    /** The delivered body: {@code {id, type, data, createdAt}}, serialized once and stored as sent. */
    public static String envelope(UUID id, String type, JsonNode data, Instant createdAt) {
        ObjectNode n = EventCodec.mapper().createObjectNode();
        n.put("id", id.toString());
        n.put("type", type);
        n.set("data", data == null ? EventCodec.mapper().nullNode() : data);
        n.put("createdAt", (createdAt == null ? Instant.now() : createdAt).toString());
        return n.toString();
    }
}
