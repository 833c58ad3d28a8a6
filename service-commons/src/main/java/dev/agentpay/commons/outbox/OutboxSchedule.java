package dev.agentpay.commons.outbox;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

/**
 * The relay's timers, kept apart from {@link OutboxRelay} so that a timer firing during start-up does
 * not create the relay (and inject its Kafka emitter) before the messaging layer is connected: they skip every run
 * until the application runs (the scheduler's own {@link Scheduled.ApplicationNotRunning}, as the outbox metrics and the pruners).
 */
@ApplicationScoped
public class OutboxSchedule {

    @Inject
    Instance<OutboxRelay> relay;

    @Inject
    OutboxConfig config;

    @Scheduled(every = "${platform.outbox.poll-interval:1s}", delayed = "2s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void poll() {
        if (config.relayEnabled()) {
            relay.get().poll();
        }
    }

    /**
     * Deletes published rows past {@code platform.outbox.retention} every {@code platform.outbox.cleanup-interval}
     * (10 minutes; a short retention with a short interval lets a soak run show the table's plateau: bench/soak.sh).
     */
    @Scheduled(every = "${platform.outbox.cleanup-interval:10m}", delayed = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> cleanUp() {
        return config.relayEnabled() ? relay.get().cleanUp() : Uni.createFrom().voidItem();
    }
}
