package dev.agentpay.localstack.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * A bounded wait for a condition the system reaches by itself (a service becoming ready once it has read
 * the partner registry to its end, say): polls every 100 ms, fails with {@code what} after {@code limit}.
 */
public final class Eventually {

    private Eventually() {
    }

    public static void until(Duration limit, BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + limit + ": " + what);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
