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
 * so the change and its event commit or roll back together; {@link OutboxRelay} publishes them, woken
 * by this class when the transaction commits.
 * Each row records the writer's trace ({@link Traces#currentTraceparent()}, or the one passed in by code
 * that works for an earlier trace, e.g. a batch job), which the relay puts on the Kafka record.
 */
@ApplicationScoped
public class Outbox {

    /** Set by the relay once it has started: a relay created from here could start before Kafka is connected. */
    private volatile Runnable committed = () -> { };

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
                .invoke(rs -> wakeAfterCommit(tx))
                .replaceWithVoid();
    }

    /**
     * Wakes the relay once the caller's transaction has committed (not before: the row would not be
     * visible yet), or at once when {@code client} runs without a transaction (the insert is committed).
     */
    private void wakeAfterCommit(SqlClient client) {
        if (client.getDelegate() instanceof io.vertx.sqlclient.SqlConnection conn && conn.transaction() != null) {
            conn.transaction().completion().onSuccess(v -> committed.run());
        } else {
            committed.run();
        }
    }

    /** Registers what to run after each commit that wrote an event (the relay's wake-up). */
    void whenCommitted(Runnable action) {
        committed = action;
    }
}
