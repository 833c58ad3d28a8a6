package dev.agentpay.commons.outbox;

import io.quarkus.hibernate.reactive.panache.Panache;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Applies an event's effect at most once per consumer: the {@code processed_event} mark and the effect
 * commit in the same transaction, so a redelivered event finds its mark and changes nothing.
 */
@ApplicationScoped
public class IdempotentConsumer {

    private static final String MARK = "insert into processed_event (event_id, consumer) values (%s, %s) on conflict do nothing";

    /**
     * Runs {@code effect} in a Hibernate Reactive transaction unless {@code consumer} already processed
     * {@code eventId}. Emits {@code true} when the effect ran.
     */
    public Uni<Boolean> once(UUID eventId, String consumer, Supplier<Uni<?>> effect) {
        return Panache.withTransaction(() -> Panache.getSession()
                .flatMap(s -> s.createNativeQuery(MARK.formatted("?1", "?2"))
                        .setParameter(1, eventId)
                        .setParameter(2, consumer)
                        .executeUpdate())
                .flatMap(n -> n == 1 ? effect.get().replaceWith(true) : Uni.createFrom().item(false)));
    }

    /** The same for raw reactive SQL: {@code tx} must hold the caller's open transaction. */
    public Uni<Boolean> once(SqlClient tx, UUID eventId, String consumer, Function<SqlClient, Uni<?>> effect) {
        return tx.preparedQuery(MARK.formatted("$1", "$2"))
                .execute(Tuple.of(eventId, consumer))
                .flatMap(rs -> rs.rowCount() == 1 ? effect.apply(tx).replaceWith(true) : Uni.createFrom().item(false));
    }
}
