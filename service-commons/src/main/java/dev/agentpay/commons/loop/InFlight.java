package dev.agentpay.commons.loop;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A count of work in flight that a clean shutdown can wait for: the one way the platform drains on SIGTERM
 * ({@code Consumers}' batches being applied, webhook-dispatcher's attempts). {@link #awaitNone} blocks, so it is called
 * on the shutdown thread only.
 */
public final class InFlight {

    private final AtomicInteger count = new AtomicInteger();

    public void started() {
        count.incrementAndGet();
    }

    public void ended() {
        if (count.decrementAndGet() == 0) {
            synchronized (count) {
                count.notifyAll();
            }
        }
    }

    public int get() {
        return count.get();
    }

    /** Waits until nothing is in flight, at most {@code timeout}; returns whether nothing is. */
    public boolean awaitNone(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (count) {
            while (count.get() > 0) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                try {
                    count.wait(Math.max(1, left / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return count.get() == 0;
                }
            }
        }
        return true;
    }
}
