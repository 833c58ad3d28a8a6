package dev.agentpay.commons.outbox;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The outbox's health as metrics: {@code agentpay_outbox_backlog} (committed events not yet on Kafka),
 * {@code agentpay_outbox_oldest_pending_seconds} (how long the oldest of them has waited) and
 * {@code agentpay_outbox_published_total}. A growing backlog is the first sign of a broker or relay
 * problem; consumer lag on the other side is Kafka's own {@code kafka_consumer_fetch_manager_records_lag_max}.
 */
@ApplicationScoped
public class OutboxMetrics {

    @Inject
    MeterRegistry registry;

    @Inject
    Pool pool;

    private final AtomicLong backlog = new AtomicLong();
    private final AtomicLong oldestSeconds = new AtomicLong();
    private volatile Counter published;

    void start(@Observes StartupEvent ev) {
        Gauge.builder("agentpay.outbox.backlog", backlog, AtomicLong::get)
                .description("committed outbox events not yet published to Kafka").register(registry);
        Gauge.builder("agentpay.outbox.oldest.pending.seconds", oldestSeconds, AtomicLong::get)
                .description("age of the oldest unpublished outbox event").register(registry);
        published = Counter.builder("agentpay.outbox.published").description("outbox events published to Kafka")
                .register(registry);
    }

    void published(int n) {
        Counter c = published;
        if (c != null && n > 0) {
            c.increment(n);
        }
    }

    @Scheduled(every = "${platform.outbox.metrics-interval:10s}", delayed = "3s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> measure() {
        return pool.query("select count(*), coalesce(extract(epoch from now() - min(created_at)), 0)::bigint"
                        + " from outbox_event where published_at is null").execute()
                .invoke(rows -> {
                    Row r = rows.iterator().next();
                    backlog.set(r.getLong(0));
                    oldestSeconds.set(r.getLong(1));
                })
                .replaceWithVoid()
                // a failed measurement keeps the last values; the relay logs database trouble itself
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
