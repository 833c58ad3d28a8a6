package dev.agentpay.webhook.service;

import dev.agentpay.webhook.repository.DeliveryRepository;
import dev.agentpay.webhook.repository.DeliveryRepository.Success;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Records successful attempts with group commit: while one group's statement is in flight the next
 * group collects, so under load one commit carries many successes, and a lone success is written at
 * once (nothing waits for a timer). Each caller's Uni completes only after its own row committed, so
 * the worker keeps the delivery counted in flight (and leased) until then.
 */
@ApplicationScoped
public class SuccessRecorder {

    /** Upper bound of one statement's arrays. */
    static final int MAX_GROUP = 256;

    private record Waiting(Success success, UniEmitter<? super Void> done) {
    }

    private final DeliveryRepository deliveries;
    private final Queue<Waiting> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean writing = new AtomicBoolean();

    public SuccessRecorder(DeliveryRepository deliveries) {
        this.deliveries = deliveries;
    }

    /** Completes when {@code success} is committed; fails with the group's error. */
    public Uni<Void> record(Success success) {
        return Uni.createFrom().emitter(em -> {
            queue.add(new Waiting(success, em));
            flush();
        });
    }

    private void flush() {
        if (!writing.compareAndSet(false, true)) {
            return; // the running write flushes again when it ends
        }
        List<Waiting> group = new ArrayList<>();
        for (Waiting w; group.size() < MAX_GROUP && (w = queue.poll()) != null; ) {
            group.add(w);
        }
        if (group.isEmpty()) {
            writing.set(false);
            if (!queue.isEmpty()) {
                flush(); // a caller queued between the poll and the reset
            }
            return;
        }
        deliveries.recordSuccesses(group.stream().map(Waiting::success).toList())
                .subscribe().with(v -> {
                    writing.set(false);
                    group.forEach(w -> w.done().complete(null));
                    flush();
                }, e -> {
                    writing.set(false);
                    group.forEach(w -> w.done().fail(e));
                    flush();
                });
    }
}
