package dev.agentpay.commons.consumer;

import dev.agentpay.commons.loop.Batches;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Keeps {@code processed_event} from growing without end (issue 34): a consumer's marks older than its retention are
 * deleted, a small batch per statement (short transactions, no long lock, no bloat burst). A mark only has to outlive
 * every redelivery of its record, and Kafka cannot redeliver a record past the topic's retention, so the default
 * retention is the topics' 7 days plus a day of margin ({@code platform.consumers.processed-retention}); a consumer
 * may keep its marks longer or shorter ({@code platform.consumers.processed-retention-per-consumer=<name>=P30D,...}). Runs on
 * every instance every {@code platform.consumers.prune-interval}; two instances deleting at once only split the work.
 */
@ApplicationScoped
public class ProcessedEventPruner {

    private static final Logger LOG = Logger.getLogger(ProcessedEventPruner.class);

    @Inject
    Pool pool;

    @Inject
    ConsumerConfig config;

    @Scheduled(every = "${platform.consumers.prune-interval:10m}", delayed = "2m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> scheduled() {
        return Batches.scheduledRun(prune(pool, Instant.now(), config.processedRetention(),
                        config.processedRetentionOverrides(), config.pruneBatchSize()),
                n -> LOG.debugf("pruned %d processed_event marks", n),
                LOG, "processed_event pruning failed, next round retries: %s");
    }

    /**
     * Deletes the marks past their consumer's retention as of {@code now}, {@code batch} rows per statement, until none
     * is left; emits how many were deleted. Consumers named in {@code perConsumer} keep theirs for that long, every
     * other consumer for {@code retention}.
     */
    public static Uni<Integer> prune(Pool pool, Instant now, Duration retention, Map<String, Duration> perConsumer, int batch) {
        List<String> named = new ArrayList<>(perConsumer.keySet());
        Uni<Integer> others = drain(pool, "consumer <> all($3::text[])", Tuple.of(cutoff(now, retention), batch,
                named.toArray(new String[0])));
        for (Map.Entry<String, Duration> e : perConsumer.entrySet()) {
            Uni<Integer> before = others;
            others = before.flatMap(n -> drain(pool, "consumer = $3", Tuple.of(cutoff(now, e.getValue()), batch, e.getKey()))
                    .map(m -> n + m));
        }
        return others;
    }

    private static OffsetDateTime cutoff(Instant now, Duration retention) {
        return now.minus(retention).atOffset(ZoneOffset.UTC);
    }

    private static Uni<Integer> drain(Pool pool, String which, Tuple args) {
        return Batches.untilShort(() -> pool.preparedQuery("delete from processed_event where ctid = any(array(select ctid"
                        + " from processed_event where processed_at < $1 and " + which + " limit $2))")
                .execute(args).map(rs -> rs.rowCount()), args.getInteger(1));
    }
}
