package dev.agentpay.commons.consumer;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The platform's one idempotent consumer: an event's effect is applied at most once per consumer. The
 * {@code processed_event} mark (platform migration {@code V1}) and the effect commit in the same
 * transaction, so a redelivered event finds its mark and changes nothing. Every consumer that has an
 * effect in its database uses it: mandate-service's anchor receipts, anchor-service's mandate events,
 * discovery-service's trust counters, webhook-dispatcher's fan-out. Every method takes the caller's
 * open transaction ({@code tx}); the caller's service owns the transaction.
 */
@ApplicationScoped
public class IdempotentConsumer {

    /**
     * Runs {@code effect} in {@code tx} unless {@code consumer} already processed {@code eventId}.
     * Emits {@code true} when the effect ran.
     */
    public Uni<Boolean> once(SqlClient tx, UUID eventId, String consumer, Function<SqlClient, Uni<?>> effect) {
        return tx.preparedQuery("insert into processed_event (event_id, consumer) values ($1, $2) on conflict do nothing")
                .execute(Tuple.of(eventId, consumer))
                .flatMap(rs -> rs.rowCount() == 1 ? effect.apply(tx).replaceWith(true) : Uni.createFrom().item(false));
    }

    /**
     * Marks a batch of events processed for {@code consumer} in {@code tx} (one statement) and emits those
     * of {@code items} not processed before, in their order: the caller applies its effect to exactly
     * these, in the same transaction. Items sharing an event id count once (the first).
     */
    public <T> Uni<List<T>> fresh(SqlClient tx, String consumer, List<T> items, Function<T, UUID> eventId) {
        if (items.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        Set<UUID> ids = new LinkedHashSet<>();
        items.forEach(i -> ids.add(eventId.apply(i)));
        return tx.preparedQuery("insert into processed_event (event_id, consumer) select unnest($1::uuid[]), $2"
                        + " on conflict do nothing returning event_id")
                .execute(Tuple.of(ids.toArray(new UUID[0]), consumer))
                .map(rs -> {
                    Set<UUID> marked = new HashSet<>();
                    for (Row r : rs) {
                        marked.add(r.getUUID(0));
                    }
                    // remove as taken, so a duplicate within the batch is applied once
                    return items.stream().filter(i -> marked.remove(eventId.apply(i))).toList();
                });
    }
}
