package dev.agentpay.commons.loop;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.mutiny.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * A coalescing wake loop: the one way the platform runs background work that is woken by events and by
 * timers (outbox relay, anchor batcher and confirmer, webhook delivery worker and success recorder, x402
 * reconciler). At most one round runs at a time; any number of {@link #wake()} calls while a round runs
 * coalesce into exactly one follow-up round, so a wake is never lost and never doubles the work. A round
 * emits {@code true} to ask for another round at once (it filled a batch), {@code false} when it is done.
 * A failed round is reported to the failure handler and not repeated at once: the next wake (a poll, a
 * timer, an event) tries again.
 *
 * <p>Timers run on Vert.x ({@link #wakeIn}: one-shot, the earliest pending wins; {@link #every}: a
 * periodic wake): one clock for every loop. Nothing runs before {@link #start()} or after {@link #stop()}.
 */
public final class WakeLoop {

    private static final Logger LOG = Logger.getLogger(WakeLoop.class);

    private final String name;
    private final Vertx vertx;
    private final Supplier<Uni<Boolean>> round;
    private volatile Consumer<Throwable> onFailure;

    private final AtomicBoolean running = new AtomicBoolean();
    private final AtomicBoolean again = new AtomicBoolean();
    private final AtomicLong timerAt = new AtomicLong();
    private final List<Long> periodic = new ArrayList<>();
    private final List<UniEmitter<? super Void>> waiting = new ArrayList<>();
    private volatile boolean open;

    /**
     * @param name  for logs
     * @param vertx the clock of {@link #wakeIn} and {@link #every} (may be null for a loop without timers)
     * @param round one round of work: {@code true} asks for another round at once
     */
    public WakeLoop(String name, Vertx vertx, Supplier<Uni<Boolean>> round) {
        this.name = Objects.requireNonNull(name);
        this.vertx = vertx;
        this.round = Objects.requireNonNull(round);
        this.onFailure = e -> LOG.warnf("%s round failed, will retry: %s", name, e.getMessage());
    }

    /** What to do with a failed round (default: a warning); the loop waits for the next wake either way. */
    public WakeLoop onFailure(Consumer<Throwable> handler) {
        this.onFailure = Objects.requireNonNull(handler);
        return this;
    }

    /** Opens the loop and runs a first round (work left from before the start). */
    public WakeLoop start() {
        open = true;
        wake();
        return this;
    }

    /** Closes the loop: no new round starts, timers are cancelled; a round in flight finishes. */
    public synchronized void stop() {
        open = false;
        if (vertx != null) {
            periodic.forEach(vertx::cancelTimer);
        }
        periodic.clear();
        failWaiting(new IllegalStateException(name + " stopped"));
    }

    public boolean active() {
        return open;
    }

    /** Asks for a round: runs one now, or one more after the round that is running. */
    public void wake() {
        if (!open) {
            return;
        }
        again.set(true);
        if (running.compareAndSet(false, true)) {
            run();
        }
    }

    /**
     * Wakes the loop when a round that starts after this call has ended (the loop being idle or busy),
     * for callers that need the work done, e.g. tests and start-up. Fails with the round's failure.
     */
    public Uni<Void> wakeAndAwait() {
        return Uni.createFrom().emitter(em -> {
            synchronized (this) {
                if (!open) {
                    em.fail(new IllegalStateException(name + " is not running"));
                    return;
                }
                waiting.add(em);
            }
            wake();
        });
    }

    /** Wakes the loop after {@code delay}, unless an earlier timer of this loop is already pending. */
    public void wakeIn(Duration delay) {
        if (!open) {
            return;
        }
        long ms = Math.max(1, delay.toMillis());
        long now = System.currentTimeMillis();
        long at = now + ms;
        long current = timerAt.get();
        if (current > now && current <= at) {
            return; // an earlier timer will wake us
        }
        timerAt.set(at);
        vertx.setTimer(ms, id -> wake());
    }

    /** Wakes the loop every {@code interval} until {@link #stop()} (the safety net for lost wakes). */
    public synchronized WakeLoop every(Duration interval) {
        periodic.add(vertx.setPeriodic(Math.max(1, interval.toMillis()), id -> wake()));
        return this;
    }

    private void run() {
        again.set(false);
        List<UniEmitter<? super Void>> served = takeWaiting();
        Uni<Boolean> r;
        try {
            r = open ? round.get() : Uni.createFrom().item(false);
        } catch (RuntimeException e) {
            r = Uni.createFrom().failure(e);
        }
        r.subscribe().with(more -> {
            running.set(false);
            served.forEach(em -> em.complete(null));
            if (Boolean.TRUE.equals(more) || again.get() || hasWaiting()) {
                wake();
            }
        }, e -> {
            running.set(false);
            served.forEach(em -> em.fail(e));
            try {
                onFailure.accept(e);
            } finally {
                if (hasWaiting()) {
                    wake();
                }
            }
        });
    }

    private synchronized List<UniEmitter<? super Void>> takeWaiting() {
        if (waiting.isEmpty()) {
            return List.of();
        }
        List<UniEmitter<? super Void>> out = new ArrayList<>(waiting);
        waiting.clear();
        return out;
    }

    private synchronized boolean hasWaiting() {
        return !waiting.isEmpty();
    }

    private synchronized void failWaiting(Throwable e) {
        waiting.forEach(em -> em.fail(e));
        waiting.clear();
    }
}
