package dev.agentpay.webhook.delivery.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.consumer.IdempotentConsumer;
import dev.agentpay.commons.events.DomainEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.webhook.delivery.repository.DeliveryRepository;
import dev.agentpay.webhook.delivery.repository.DeliveryRepository.FanOutEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Turns input events into pending deliveries: for each event the envelope, one delivery row per
 * matching subscription and the processed-event mark ({@link IdempotentConsumer}) are written in the
 * same transaction, so a redelivered Kafka record fans out once. A Kafka poll batch is two statements
 * (the marks, then the fan-out of the new events, in order) in one transaction; the worker is woken
 * after a commit that queued deliveries.
 */
@ApplicationScoped
public class FanOutService {

    /** The consumer name of the processed-event ledger. */
    public static final String CONSUMER = "webhook-dispatcher";

    /** One decoded input event and what its envelope carries. */
    public record Input(DomainEvent event, JsonNode data, boolean broadcast) {
    }

    /** What a fan-out stored: events seen for the first time, and pending deliveries queued for them. */
    public record FanOutResult(int newEvents, int queuedDeliveries) {
    }

    @Inject
    DeliveryRepository deliveries;
    @Inject
    DeliveryWorker worker;
    @Inject
    IdempotentConsumer idempotent;
    @Inject
    Pool pool;

    /**
     * Fans out {@code inputs} in one transaction. {@code broadcast} events go to every subscriber of the
     * type; any other event only to its owning partner's subscriptions (an event without owner then
     * reaches nobody). Emits how many events were new.
     */
    public Uni<Integer> accept(List<Input> inputs) {
        // A record redelivered within one poll batch appears once: the first copy fans out.
        Map<UUID, FanOutEvent> events = new LinkedHashMap<>();
        for (Input in : inputs) {
            events.putIfAbsent(in.event().eventId(), fanOutEvent(in));
        }
        if (events.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return fanOut(CONSUMER, new ArrayList<>(events.values()))
                // a batch that matched no subscription queued nothing: no claim round for it
                .invoke(r -> {
                    if (r.queuedDeliveries() > 0) {
                        worker.wake();
                    }
                })
                .map(FanOutResult::newEvents);
    }

    /**
     * One transaction: the events' {@code processed_event} marks for {@code consumer} (the platform's
     * idempotent consumer) and, for the events not processed before, their envelopes and deliveries.
     * Event ids must be distinct.
     */
    public Uni<FanOutResult> fanOut(String consumer, List<FanOutEvent> events) {
        return pool.withTransaction(tx -> idempotent.fresh(tx, consumer, events, FanOutEvent::eventId)
                .flatMap(fresh -> fresh.isEmpty() ? Uni.createFrom().item(new FanOutResult(0, 0))
                        : deliveries.fanOutBatch(tx, fresh).map(queued -> new FanOutResult(fresh.size(), queued))));
    }

    /** What the fan-out statement stores for one input: its envelope and where its deliveries go. */
    public static FanOutEvent fanOutEvent(Input in) {
        DomainEvent e = in.event();
        return new FanOutEvent(e.eventId(), e.type(), e.aggregateId(), e.partnerId(), in.broadcast(),
                e.topic() + ":" + e.aggregateId(), envelope(e.eventId(), e.type(), in.data(), e.occurredAt()));
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
