package dev.agentpay.commons.outbox;

import dev.agentpay.commons.loop.WakeLoop;
import dev.agentpay.commons.tracing.Traces;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Publishes committed outbox rows to Kafka in commit order, keyed by aggregate id, and marks them
 * published only after the broker acknowledged them (at-least-once; consumers dedupe by event id).
 * Woken in-process right after each commit that wrote an event ({@link Outbox}), with a slow poll
 * ({@link OutboxSchedule}) as the safety net. A transaction-scoped advisory lock keeps one relay per
 * database at a time, so scaled-out replicas never reorder an aggregate's events (a relay frozen holding it
 * loses it with its session after {@code platform.outbox.idle-transaction-timeout}); a replica woken while
 * another holds the lock tries again shortly, which is how another replica's commits get published
 * promptly. There is deliberately no {@code NOTIFY}: a transaction that notifies takes PostgreSQL's
 * notify-queue lock at commit and holds it through its WAL flush, which serializes every writer's
 * commit (see bench/RESULTS.md, "Mandates"). Each record carries {@code event-id},
 * {@code event-type} and, when the row recorded a trace, a {@code traceparent} naming the relay's
 * producer span (a child of the writer's span).
 */
@ApplicationScoped
public class OutboxRelay {

    /** Channel the relay publishes through; its topic is overridden per record. */
    public static final String CHANNEL = "outbox-out";

    private static final AttributeKey<String> MESSAGING_SYSTEM = AttributeKey.stringKey("messaging.system");
    private static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    private static final long RELAY_LOCK = 0x6f7574626f78L; // "outbox"

    /** What {@link #relayBatch()} returns when another relay holds the lock. */
    public static final int LOCK_BUSY = -1;

    @Inject
    Pool pool;

    @Inject
    Vertx vertx;

    @Inject
    @Channel(CHANNEL)
    MutinyEmitter<String> emitter;

    @Inject
    OutboxConfig config;

    @Inject
    Outbox outbox;

    @Inject
    Tracer tracer;

    @Inject
    OutboxMetrics metrics;

    private volatile WakeLoop loop;

    /** Runs after the messaging layer has connected its emitters (observers run in priority order). */
    void start(@Observes @Priority(Integer.MAX_VALUE - 100) StartupEvent ev) {
        if (!config.relayEnabled()) {
            return;
        }
        loop = new WakeLoop("outbox relay", vertx, this::round);
        outbox.whenCommitted(this::wake);
        loop.start(); // rows committed while this instance was down
    }

    void stop(@Observes ShutdownEvent ev) {
        WakeLoop l = loop;
        if (l != null) {
            l.stop();
        }
    }

    /** The safety-net poll; nothing happens before the application has started. */
    void poll() {
        wake();
    }

    /** Asks for a relay round; concurrent requests coalesce into one running drain plus one follow-up. */
    public void wake() {
        WakeLoop l = loop;
        if (l != null) {
            l.wake();
        }
    }

    private Uni<Boolean> round() {
        return relayBatch().map(n -> {
            if (n == LOCK_BUSY) {
                // another replica is relaying; our commits may have missed its snapshot
                loop.wakeIn(config.lockRetry());
                return false;
            }
            return n >= config.batchSize();
        });
    }

    /** Publishes up to one batch; returns how many rows it published, or {@link #LOCK_BUSY}. */
    public Uni<Integer> relayBatch() {
        // a relay frozen inside this transaction must not hold the lock for good: the server ends its session
        return pool.withTransaction(conn -> conn.preparedQuery("select pg_try_advisory_xact_lock($1),"
                        + " set_config('idle_in_transaction_session_timeout', $2, true)")
                .execute(Tuple.of(RELAY_LOCK, Long.toString(config.idleTransactionTimeout().toMillis())))
                .flatMap(rs -> rs.iterator().next().getBoolean(0) ? publishLocked(conn) : Uni.createFrom().item(LOCK_BUSY)))
                .invoke(n -> metrics.published(Math.max(n, 0))); // counted once the rows are marked published (committed)
    }

    private Uni<Integer> publishLocked(SqlConnection conn) {
        return conn.preparedQuery("select id, topic, aggregate_id, type, payload, trace_parent from outbox_event"
                        + " where published_at is null order by seq limit $1")
                .execute(Tuple.of(config.batchSize()))
                .flatMap(rows -> {
                    if (rows.size() == 0) {
                        return Uni.createFrom().item(0);
                    }
                    List<Uni<Void>> sends = new ArrayList<>(rows.size());
                    List<UUID> ids = new ArrayList<>(rows.size());
                    for (Row row : rows) {
                        ids.add(row.getUUID("id"));
                        sends.add(send(row));
                    }
                    return Uni.join().all(sends).andFailFast()
                            .flatMap(x -> conn.preparedQuery("update outbox_event set published_at = $1 where id = any($2)")
                                    .execute(Tuple.of(OffsetDateTime.now(ZoneOffset.UTC), ids.toArray(new UUID[0]))))
                            .replaceWith(rows.size());
                });
    }

    private Uni<Void> send(Row row) {
        String topic = row.getString("topic");
        RecordHeaders headers = new RecordHeaders();
        headers.add("event-id", row.getUUID("id").toString().getBytes(StandardCharsets.UTF_8));
        headers.add("event-type", row.getString("type").getBytes(StandardCharsets.UTF_8));
        // a producer span, child of the writer's trace, names the relay hop; consumers continue from it
        Span span = tracer.spanBuilder("publish " + topic)
                .setParent(Traces.parent(row.getString("trace_parent")))
                .setSpanKind(SpanKind.PRODUCER)
                .setAttribute(MESSAGING_SYSTEM, "kafka")
                .setAttribute(DESTINATION, topic)
                .startSpan();
        String traceparent = Traces.traceparent(span.getSpanContext());
        if (traceparent != null) {
            headers.add(Traces.TRACEPARENT, traceparent.getBytes(StandardCharsets.UTF_8));
        }
        OutgoingKafkaRecordMetadata<String> meta = OutgoingKafkaRecordMetadata.<String>builder()
                .withTopic(topic)
                .withKey(row.getString("aggregate_id"))
                .withHeaders(headers)
                .build();
        return emitter.sendMessage(Message.of(row.getString("payload")).addMetadata(meta))
                .onTermination().invoke((ok, failure, cancelled) -> {
                    if (failure != null) {
                        span.setStatus(StatusCode.ERROR, failure.getMessage());
                    }
                    span.end();
                });
    }

    /** Deletes published rows past their retention. */
    Uni<Void> cleanUp() {
        return pool.preparedQuery("delete from outbox_event where published_at < $1")
                .execute(Tuple.of(OffsetDateTime.now(ZoneOffset.UTC).minus(config.retention())))
                .replaceWithVoid();
    }
}
