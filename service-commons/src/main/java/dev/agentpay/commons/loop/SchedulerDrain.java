package dev.agentpay.commons.loop;

import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.scheduler.Scheduler;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/**
 * Drain on SIGTERM for the scheduled jobs (every service's periodic work on Quarkus's scheduler: expiry, clean-ups,
 * recoveries, settlement-watcher's chain scans): at the pre-shutdown event the scheduler is paused, before the other
 * drains run, so no job starts once the instance is leaving. A job already running finishes while the database pool
 * is still open; without this, jobs kept firing after the pool had closed and each run failed with "Pool closed" until
 * the process exited (issue 29). The next instance, or this one's replacement, runs them.
 */
@ApplicationScoped
public class SchedulerDrain {

    private static final Logger LOG = Logger.getLogger(SchedulerDrain.class);

    @Inject
    Scheduler scheduler;

    /** First of the pre-shutdown observers: stop starting jobs. */
    void pause(@Observes @Priority(1) ShutdownDelayInitiatedEvent ev) {
        if (scheduler.isStarted()) {
            scheduler.pause();
            LOG.info("shutdown: scheduled jobs paused (a running one finishes)");
        }
    }
}
