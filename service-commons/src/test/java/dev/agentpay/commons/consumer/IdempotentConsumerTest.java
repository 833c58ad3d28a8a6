package dev.agentpay.commons.consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpay.commons.testing.PlatformDatabase;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The one idempotent consumer against real PostgreSQL: an effect is applied once per consumer and event. */
@org.junit.jupiter.api.Tag("servers") // starts PostgreSQL, Kafka or anvil: not in the fast tier (-Pfast)
class IdempotentConsumerTest {

    private static final Duration T = Duration.ofSeconds(10);
    private static PlatformDatabase db;
    private static Pool pool;
    private final IdempotentConsumer idempotent = new IdempotentConsumer();

    @BeforeAll
    static void start() {
        db = PlatformDatabase.start();
        pool = db.pool();
        pool.query("create table effect (event_id uuid, note text)").execute().await().atMost(T);
    }

    @AfterAll
    static void stop() throws Exception {
        db.close();
    }

    private static Uni<?> effect(io.vertx.mutiny.sqlclient.SqlClient tx, UUID id) {
        return tx.preparedQuery("insert into effect (event_id) values ($1)").execute(Tuple.of(id));
    }

    private static long effects(UUID id) {
        return pool.preparedQuery("select count(*) from effect where event_id = $1").execute(Tuple.of(id)).await().atMost(T)
                .iterator().next().getLong(0);
    }

    @Test
    void aRedeliveredEventChangesNothingAndAnotherConsumerStillAppliesIt() {
        UUID id = UUID.randomUUID();
        Function<String, Boolean> once = consumer -> pool.withTransaction(tx -> idempotent.once(tx, id, consumer, c -> effect(c, id)))
                .await().atMost(T);
        assertThat(once.apply("a")).isTrue();
        assertThat(once.apply("a")).as("redelivered").isFalse();
        assertThat(effects(id)).isEqualTo(1);
        assertThat(once.apply("b")).as("another consumer has its own mark").isTrue();
        assertThat(effects(id)).isEqualTo(2);
    }

    @Test
    void aFailedEffectRollsTheMarkBackSoTheRetryApplies() {
        UUID id = UUID.randomUUID();
        assertThatThrownBy(() -> pool.withTransaction(tx -> idempotent.once(tx, id, "c",
                c -> effect(c, id).chain(() -> Uni.createFrom().failure(new IllegalStateException("effect failed")))))
                .await().atMost(T)).hasMessage("effect failed");
        assertThat(effects(id)).isZero();
        assertThat(pool.withTransaction(tx -> idempotent.once(tx, id, "c", c -> effect(c, id))).await().atMost(T)).isTrue();
        assertThat(effects(id)).isEqualTo(1);
    }

    @Test
    void aBatchKeepsOnlyEventsNotSeenBeforeInOrderAndEachDuplicateOnce() {
        UUID seen = UUID.randomUUID();
        UUID a = UUID.randomUUID();
        UUID b = UUID.randomUUID();
        pool.withTransaction(tx -> idempotent.once(tx, seen, "batch", c -> Uni.createFrom().voidItem())).await().atMost(T);
        List<String> items = List.of(b + ":1", seen + ":2", a + ":3", b + ":4");
        Function<String, UUID> idOf = s -> UUID.fromString(s.substring(0, 36));
        List<String> fresh = pool.withTransaction(tx -> idempotent.fresh(tx, "batch", items, idOf)).await().atMost(T);
        assertThat(fresh).containsExactly(b + ":1", a + ":3");
        assertThat(pool.withTransaction(tx -> idempotent.fresh(tx, "batch", items, idOf)).await().atMost(T))
                .as("the whole batch redelivered").isEmpty();
        assertThat(pool.withTransaction(tx -> idempotent.fresh(tx, "batch", List.<String>of(), idOf)).await().atMost(T)).isEmpty();
    }
}
