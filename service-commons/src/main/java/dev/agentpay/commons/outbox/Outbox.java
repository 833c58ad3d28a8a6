package dev.agentpay.commons.outbox;

import dev.agentpay.commons.events.DomainEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.tracing.Traces;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Writes events into the outbox table. Call it inside the transaction that makes the state change,
 * so the change and its event commit or roll back together; {@link OutboxRelay} publishes them.
 * Each row records the writer's trace ({@link Traces#currentTraceparent()}, or the one passed in by code
 * that works for an earlier trace, e.g. a batch job), which the relay puts on the Kafka record.
 */
@ApplicationScoped
public class Outbox {

    /** Appends through the current Hibernate Reactive session (inside {@code Panache.withTransaction}). */
    public Uni<Void> append(DomainEvent event) {
        return append(event, Traces.currentTraceparent());
    }

    /** The same, recording {@code traceparent} (null for none) as the event's trace instead of the current one. */
    public Uni<Void> append(DomainEvent event, String traceparent) {
        OutboxRecord r = new OutboxRecord();
        r.id = event.eventId();
        r.topic = event.topic();
        r.aggregateId = event.aggregateId();
        r.partnerId = event.partnerId();
        r.type = event.type();
        r.payload = EventCodec.encode(event);
        r.createdAt = Instant.now();
        r.traceParent = traceparent;
        return r.persist().replaceWithVoid();
    }

    /** Appends through a reactive SQL connection that holds the caller's open transaction. */
    public Uni<Void> append(SqlClient tx, DomainEvent event) {
        return append(tx, event, Traces.currentTraceparent());
    }

    /** The same, recording {@code traceparent} (null for none) as the event's trace instead of the current one. */
    public Uni<Void> append(SqlClient tx, DomainEvent event, String traceparent) {
        return tx.preparedQuery("insert into outbox_event (id, topic, aggregate_id, partner_id, type, payload, created_at, trace_parent)"
                        + " values ($1, $2, $3, $4, $5, $6, $7, $8)")
                .execute(Tuple.tuple()
                        .addUUID(event.eventId())
                        .addString(event.topic())
                        .addString(event.aggregateId())
                        .addString(event.partnerId())
                        .addString(event.type())
                        .addString(EventCodec.encode(event))
                        .addOffsetDateTime(OffsetDateTime.ofInstant(Instant.now(), ZoneOffset.UTC))
                        .addString(traceparent))
                .replaceWithVoid();
    }
}
