package dev.agentpay.commons.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.commons.testing.PlatformDatabase;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link ProcessedEventPruner} against real PostgreSQL: marks past their consumer's retention go, in batches smaller
 * than what is deleted; younger marks and consumers with a longer retention of their own stay; a pruned mark no longer
 * guards its event (why the retention must outlive the topic's) while a kept one still does.
 */
class ProcessedEventPrunerTest {

    private static final Duration T = Duration.ofSeconds(20);
    private static PlatformDatabase db;
    private static Pool pool;

    @BeforeAll
    static void start() {
        db = PlatformDatabase.start();
        pool = db.pool();
    }

    @AfterAll
    static void stop() throws Exception {
        db.close();
    }

    private static void marks(String consumer, int n, Instant at) {
        pool.preparedQuery("insert into processed_event (event_id, consumer, processed_at) select gen_random_uuid(), $1, $2"
                + " from generate_series(1, $3)").execute(Tuple.of(consumer, at.atOffset(ZoneOffset.UTC), n)).await().atMost(T);
    }

    private static long count(String consumer) {
        return pool.preparedQuery("select count(*) from processed_event where consumer = $1").execute(Tuple.of(consumer))
                .await().atMost(T).iterator().next().getLong(0);
    }

    @Test
    void marksPastTheirConsumersRetentionGoInBatchesAndTheRestStay() {
        Instant now = Instant.parse("2026-11-26T12:00:00Z");
        marks("pruner-a", 1234, now.minus(Duration.ofDays(9)));
        marks("pruner-a", 17, now.minus(Duration.ofDays(7)));
        marks("pruner-b", 40, now.minus(Duration.ofDays(9)));     // b keeps 30 days
        marks("pruner-c", 25, now.minus(Duration.ofHours(2)));    // c keeps 1 hour
        marks("pruner-c", 5, now.minus(Duration.ofMinutes(30)));

        int deleted = ProcessedEventPruner.prune(pool, now, Duration.ofDays(8),
                Map.of("pruner-b", Duration.ofDays(30), "pruner-c", Duration.ofHours(1)), 100).await().atMost(T);

        assertThat(deleted).isEqualTo(1234 + 25);
        assertThat(count("pruner-a")).isEqualTo(17);
        assertThat(count("pruner-b")).isEqualTo(40);
        assertThat(count("pruner-c")).isEqualTo(5);
        // a second round finds nothing more
        assertThat(ProcessedEventPruner.prune(pool, now, Duration.ofDays(8),
                Map.of("pruner-b", Duration.ofDays(30), "pruner-c", Duration.ofHours(1)), 100).await().atMost(T)).isZero();
    }

    @Test
    void aPrunedMarkNoLongerGuardsItsEventAndAKeptOneDoes() {
        Instant now = Instant.now();
        UUID old = UUID.randomUUID();
        UUID recent = UUID.randomUUID();
        pool.preparedQuery("insert into processed_event (event_id, consumer, processed_at) values ($1, 'pruner-d', $2), ($3, 'pruner-d', $4)")
                .execute(Tuple.of(old, now.minus(Duration.ofDays(10)).atOffset(ZoneOffset.UTC), recent,
                        now.minus(Duration.ofDays(1)).atOffset(ZoneOffset.UTC))).await().atMost(T);
        ProcessedEventPruner.prune(pool, now, Duration.ofDays(8), Map.of(), 5000).await().atMost(T);
        IdempotentConsumer idempotent = new IdempotentConsumer();
        assertThat(pool.withTransaction(tx -> idempotent.once(tx, recent, "pruner-d", c -> io.smallrye.mutiny.Uni.createFrom().voidItem()))
                .await().atMost(T)).as("a mark inside the retention still refuses the redelivery").isFalse();
        assertThat(pool.withTransaction(tx -> idempotent.once(tx, old, "pruner-d", c -> io.smallrye.mutiny.Uni.createFrom().voidItem()))
                .await().atMost(T)).as("a pruned mark is gone").isTrue();
    }
}
