package dev.agentpay.settlement.watcher.service;

import io.smallrye.mutiny.Uni;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * One lane of work per key (a chain), each piece of work starting only once the previous one on its lane
 * has ended, without a thread waiting: the per-chain "one step at a time" of the scanners and the sweeper
 * (two steps of one chain never interleave, a stopped chain's step in flight can be waited for), while
 * every chain runs independently of the others.
 *
 * @param <K> the lane key
 */
public final class SerialLanes<K> {

    private static final CompletableFuture<Void> IDLE = CompletableFuture.completedFuture(null);
    private final Map<K, CompletableFuture<Void>> tails = new ConcurrentHashMap<>();

    /**
     * Runs {@code work} on {@code key}'s lane when subscribed: after everything queued before it on that
     * lane has ended (whatever its outcome), and before anything queued later.
     */
    public <T> Uni<T> run(K key, Supplier<Uni<T>> work) {
        return Uni.createFrom().deferred(() -> {
            CompletableFuture<Void> mine = new CompletableFuture<>();
            CompletableFuture<Void> before = tails.put(key, mine);
            CompletableFuture<Void> prev = before == null ? IDLE : before;
            return Uni.createFrom().completionStage(prev)
                    .flatMap(x -> work.get())
                    // ended, failed or cancelled: the lane moves on, never before the work ahead of this one ended
                    .onTermination().invoke(() -> prev.whenComplete((v, e) -> mine.complete(null)));
        });
    }

    /** True while something runs or waits on {@code key}'s lane. */
    public boolean busy(K key) {
        CompletableFuture<Void> tail = tails.get(key);
        return tail != null && !tail.isDone();
    }

    /** Completes once everything queued on {@code key}'s lane so far has ended. */
    public Uni<Void> idle(K key) {
        CompletableFuture<Void> tail = tails.getOrDefault(key, IDLE);
        return Uni.createFrom().completionStage(tail);
    }
}
