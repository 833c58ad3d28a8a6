package dev.agentpay.localstack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** The launcher's start steps: run side by side or one by one, each timed and reported on the console. */
final class Steps {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long T0 = LocalStack.T0;

    private Steps() {
    }

    /** A step that may throw. */
    @FunctionalInterface
    interface Step<T> {
        T run() throws Exception;
    }

    static <T> CompletableFuture<T> async(String name, Step<T> step) {
        return CompletableFuture.supplyAsync(() -> timed(name, step));
    }

    static <T> T timed(String name, Step<T> step) {
        long t = System.nanoTime();
        System.out.printf("[%6.1fs] %-28s starting%n", seconds(), name);
        try {
            T r = step.run();
            System.out.printf("[%6.1fs] %-28s ready in %.1f s%n", seconds(), name, (System.nanoTime() - t) / 1e9);
            return r;
        } catch (Exception e) {
            System.out.printf("[%6.1fs] %-28s FAILED: %s%n", seconds(), name, e.getMessage());
            throw e instanceof RuntimeException re ? re : new IllegalStateException(e);
        }
    }

    static double seconds() {
        return (System.nanoTime() - T0) / 1e9;
    }

    static <T> Supplier<T> unchecked(Step<T> s) {
        return () -> {
            try {
                return s.run();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
    }

    static JsonNode json(String s) throws IOException {
        return JSON.readTree(s);
    }
}
