package dev.agentpay.bench;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.HdrHistogram.Recorder;

/**
 * Drives an asynchronous operation in one of two modes and records latencies in an HdrHistogram:
 * closed loop (N operations in flight, each starting when the previous one ends) or constant rate
 * (operations start on a fixed schedule whatever the answers do; latency is measured from the
 * intended start, so a stalled server shows up instead of being hidden by coordinated omission).
 */
public final class LoadDriver {

    private final Vertx vertx;

    public LoadDriver(Vertx vertx) {
        this.vertx = vertx;
    }

    public Result closedLoop(String name, int concurrency, Duration warmup, Duration duration, Supplier<Future<?>> op) {
        run(concurrency, warmup, op, new Recorder(3));
        Recorder recorder = new Recorder(3);
        AtomicLong errors = new AtomicLong();
        long t0 = System.nanoTime();
        long ops = run(concurrency, duration, op, recorder, errors);
        return Result.of(name, "closed-loop c=" + concurrency, ops, errors.get(), System.nanoTime() - t0, recorder.getIntervalHistogram());
    }

    private long run(int concurrency, Duration d, Supplier<Future<?>> op, Recorder r) {
        return run(concurrency, d, op, r, new AtomicLong());
    }

    private long run(int concurrency, Duration d, Supplier<Future<?>> op, Recorder recorder, AtomicLong errors) {
        long end = System.nanoTime() + d.toNanos();
        AtomicLong done = new AtomicLong();
        CompletableFuture<?>[] loops = new CompletableFuture<?>[concurrency];
        for (int i = 0; i < concurrency; i++) {
            CompletableFuture<Void> loop = new CompletableFuture<>();
            loops[i] = loop;
            vertx.runOnContext(v -> next(op, end, recorder, errors, done, loop));
        }
        CompletableFuture.allOf(loops).join();
        return done.get();
    }

    private void next(Supplier<Future<?>> op, long end, Recorder recorder, AtomicLong errors, AtomicLong done, CompletableFuture<Void> loop) {
        if (System.nanoTime() >= end) {
            loop.complete(null);
            return;
        }
        long start = System.nanoTime();
        op.get().onComplete(ar -> {
            recorder.recordValue(Math.max(1, (System.nanoTime() - start) / 1000));
            done.incrementAndGet();
            if (ar.failed()) {
                errors.incrementAndGet();
            }
            next(op, end, recorder, errors, done, loop);
        });
    }

    /** Issues {@code perSecond} operations a second for {@code warmup} (not recorded), then for {@code duration}. */
    public Result constantRate(String name, int perSecond, Duration warmup, Duration duration, Supplier<Future<?>> op) {
        if (!warmup.isZero()) {
            constantRate(name, perSecond, Duration.ZERO, warmup, op);
        }
        Recorder recorder = new Recorder(3);
        AtomicLong errors = new AtomicLong();
        AtomicLong done = new AtomicLong();
        long total = perSecond * duration.toSeconds();
        long intervalNanos = 1_000_000_000L / perSecond;
        long t0 = System.nanoTime();
        Promise<Void> finished = Promise.promise();
        AtomicLong issued = new AtomicLong();
        // A 1 ms tick issues every operation whose intended start has passed.
        long timer = vertx.setPeriodic(1, id -> {
            long due = Math.min(total, (System.nanoTime() - t0) / intervalNanos + 1);
            while (issued.get() < due) {
                long intended = t0 + issued.getAndIncrement() * intervalNanos;
                op.get().onComplete(ar -> {
                    recorder.recordValue(Math.max(1, (System.nanoTime() - intended) / 1000));
                    if (ar.failed()) {
                        errors.incrementAndGet();
                    }
                    if (done.incrementAndGet() == total) {
                        finished.tryComplete();
                    }
                });
            }
        });
        try {
            finished.future().toCompletionStage().toCompletableFuture().get(duration.toSeconds() + 60, TimeUnit.SECONDS);
        } catch (Exception e) {
            // report what completed
        } finally {
            vertx.cancelTimer(timer);
        }
        return Result.of(name, "constant-rate " + perSecond + "/s", done.get(), errors.get(), System.nanoTime() - t0, recorder.getIntervalHistogram());
    }

    /** One run's figures; latencies in milliseconds. */
    public record Result(String name, String mode, long ops, long errors, double seconds, double throughput,
            double p50, double p99, double p999, double max) {

        static Result of(String name, String mode, long ops, long errors, long nanos, org.HdrHistogram.Histogram h) {
            double s = nanos / 1e9;
            return new Result(name, mode, ops, errors, s, ops / s, h.getValueAtPercentile(50) / 1000.0,
                    h.getValueAtPercentile(99) / 1000.0, h.getValueAtPercentile(99.9) / 1000.0, h.getMaxValue() / 1000.0);
        }

        public String markdownRow() {
            return String.format("| %s | %s | %d | %d | %.0f | %.2f | %.2f | %.2f | %.2f |", name, mode, ops, errors, throughput, p50, p99, p999, max);
        }

        public static String markdownHeader() {
            return "| scenario | mode | ops | errors | ops/s | p50 ms | p99 ms | p99.9 ms | max ms |\n|---|---|---|---|---|---|---|---|---|";
        }
    }
}
