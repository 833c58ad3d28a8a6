package dev.agentpay.commons.outbox;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;

/**
 * The relay's timers, kept apart from {@link OutboxRelay} so that a timer firing during start-up does
 * not create the relay (and inject its Kafka emitter) before the messaging layer is connected.
 */
@ApplicationScoped
public class OutboxSchedule {

    @Inject
    Instance<OutboxRelay> relay;

    @Inject
    OutboxConfig config;

    private volatile boolean started;

    /** Timers may fire while the application is still starting; they wait for this. */
    void started(@Observes @Priority(Integer.MAX_VALUE - 50) StartupEvent ev) {
        started = true;
    }

    @Scheduled(every = "${platform.outbox.poll-interval:1s}", delayed = "2s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void poll() {
        if (started && config.relayEnabled()) {
            relay.get().poll();
        }
    }

    /**
     * Deletes published rows past {@code platform.outbox.retention} every {@code platform.outbox.cleanup-interval}
     * (10 minutes; a short retention with a short interval lets a soak run show the table's plateau: bench/soak.sh).
     */
    @Scheduled(every = "${platform.outbox.cleanup-interval:10m}", delayed = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> cleanUp() {
        return started && config.relayEnabled() ? relay.get().cleanUp() : Uni.createFrom().voidItem();
    }
}
