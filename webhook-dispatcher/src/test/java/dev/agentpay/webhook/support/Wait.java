package dev.agentpay.webhook.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polls a condition until it holds or a deadline passes (then fails with a description). */
public final class Wait {

    private Wait() {
    }

    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what);
            }
            sleep(50);
        }
    }

    public static <T> T until(String what, Duration timeout, Supplier<T> value, java.util.function.Predicate<T> ok) {
        long deadline = System.nanoTime() + timeout.toNanos();
        T v = value.get();
        while (!ok.test(v)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after " + timeout + " waiting for " + what + "; last value: " + v);
            }
            sleep(50);
            v = value.get();
        }
        return v;
    }

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
