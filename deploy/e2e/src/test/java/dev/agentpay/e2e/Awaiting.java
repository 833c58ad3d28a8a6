package dev.agentpay.e2e;

import java.time.Duration;
import java.util.concurrent.Callable;

/** Bounded polling for eventually-consistent effects. */
final class Awaiting {

    private Awaiting() {
    }

    static <T> T until(Duration timeout, Callable<T> probe) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            T value = probe.call();
            if (value != null) {
                return value;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within " + timeout);
            }
            Thread.sleep(250);
        }
    }
}
