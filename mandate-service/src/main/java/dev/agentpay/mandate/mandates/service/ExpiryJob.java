package dev.agentpay.mandate.mandates.service;

import dev.agentpay.mandate.config.MandateConfig;
import dev.agentpay.mandate.mandates.repository.MandateRepository;
import dev.agentpay.commons.loop.Batches;
import dev.agentpay.commons.sql.Times;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Moves every live mandate whose {@code expires_at} has passed to {@code expired}, in batches until none is
 * left, so a service that was down catches up on its first run. Rows are claimed with
 * {@code for update skip locked}: replicas share the work and never block a request holding a mandate.
 */
@ApplicationScoped
public class ExpiryJob {

    private static final Logger LOG = Logger.getLogger(ExpiryJob.class);

    @Inject
    Pool pool;

    @Inject
    MandateRepository mandates;

    @Inject
    MandateService service;

    @Inject
    MandateConfig config;

    /** Scheduler identity of the job (operators and tests may pause it). */
    public static final String IDENTITY = "mandate-expiry";

    @Scheduled(identity = IDENTITY, every = "${mandate.expiry.interval:5s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> run() {
        return Batches.scheduledRun(expireAll(), n -> LOG.infof("expired %d mandate(s)", n),
                LOG, "expiry run failed, next run retries: %s");
    }

    /** Expires everything due now; returns how many mandates it expired. */
    public Uni<Integer> expireAll() {
        return Batches.untilShort(this::expireBatch, config.expiry().batchSize());
    }

    private Uni<Integer> expireBatch() {
        Instant now = Times.now();
        return pool.withTransaction(conn -> mandates.lockExpired(conn, now, config.expiry().batchSize())
                .flatMap(due -> {
                    Uni<Void> chain = Uni.createFrom().voidItem();
                    for (var m : due) {
                        chain = chain.flatMap(v -> service.expire(conn, m, now));
                    }
                    return chain.replaceWith(due.size());
                }));
    }
}
