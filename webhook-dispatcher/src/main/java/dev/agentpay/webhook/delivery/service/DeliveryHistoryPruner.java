package dev.agentpay.webhook.delivery.service;

import dev.agentpay.commons.loop.Batches;
import dev.agentpay.webhook.config.WebhookConfig;
import dev.agentpay.webhook.delivery.repository.DeliveryRepository;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.jboss.logging.Logger;

/**
 * Keeps the delivery history from growing without end (issue 34): deliveries that ended longer ago than
 * {@code webhook.history.retention} (30 days) are deleted with their attempts, a batch per transaction, and their
 * events once nothing refers to them. Pending deliveries are never touched, whatever their age. Runs on every instance
 * every {@code webhook.history.prune-interval}; two instances pruning at once only split the work.
 */
@ApplicationScoped
public class DeliveryHistoryPruner {

    private static final Logger LOG = Logger.getLogger(DeliveryHistoryPruner.class);

    @Inject
    DeliveryRepository deliveries;
    @Inject
    WebhookConfig config;
    @Inject
    Pool pool;

    @Scheduled(every = "${webhook.history.prune-interval:10m}", delayed = "2m",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> scheduled() {
        return Batches.scheduledRun(prune(Instant.now(), config.history().retention(), config.history().pruneBatchSize()),
                n -> LOG.infof("pruned %d deliveries that ended more than %s ago", n, config.history().retention()),
                LOG, "delivery history pruning failed, next round retries: %s");
    }

    /** Deletes every delivery that ended before {@code now - retention}, {@code batch} per transaction; emits how many. */
    public Uni<Integer> prune(Instant now, Duration retention, int batch) {
        var cutoff = now.minus(retention).atOffset(ZoneOffset.UTC);
        return Batches.untilShort(() -> pool.withTransaction(tx -> deliveries.pruneHistory(tx, cutoff, batch)), batch);
    }
}
