package dev.agentpay.mandate.dispute.service;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
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
        return resolveAllDue().invoke(n -> {
            if (n > 0) {
                LOG.infof("resolved %d dispute(s) past their deadline (refunded to the funder)", n);
            }
        }).onFailure().invoke(e -> LOG.warnf("dispute deadline run failed, next run retries: %s", e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    /** Resolves every dispute due now; answers how many. */
    public Uni<Integer> resolveAllDue() {
        int batch = config.batchSize();
        return Multi.createBy().repeating().uni(service::resolveDue).whilst(n -> n >= batch)
                .collect().with(java.util.stream.Collectors.summingInt(Integer::intValue));
    }
}
