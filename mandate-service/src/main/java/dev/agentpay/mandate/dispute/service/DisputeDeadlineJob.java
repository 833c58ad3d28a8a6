package dev.agentpay.mandate.dispute.service;

import dev.agentpay.commons.loop.Batches;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/**
 * Resolves every dispute past its deadline by refunding the funder ({@link DisputeService#resolveDue}), in batches
 * until none is left, so a service that was down catches up on its first run. Mandates are claimed with
 * {@code for update skip locked}: replicas share the work and never wait for a request that holds a mandate.
 */
@ApplicationScoped
public class DisputeDeadlineJob {

    private static final Logger LOG = Logger.getLogger(DisputeDeadlineJob.class);

    /** Scheduler identity of the job (operators and tests may pause it). */
    public static final String IDENTITY = "dispute-deadline";

    @Inject
    DisputeService service;

    @Inject
    dev.agentpay.mandate.dispute.config.DisputeConfig config;

    @Scheduled(identity = IDENTITY, every = "${dispute.deadline-check-interval:5s}", delayed = "2s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> run() {
        return Batches.scheduledRun(resolveAllDue(),
                n -> LOG.infof("resolved %d dispute(s) past their deadline (refunded to the funder)", n),
                LOG, "dispute deadline run failed, next run retries: %s");
    }

    /** Resolves every dispute due now; answers how many. */
    public Uni<Integer> resolveAllDue() {
        return Batches.untilShort(service::resolveDue, config.batchSize());
    }
}
