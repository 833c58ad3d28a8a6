package dev.agentpay.webhook.delivery.service;

import dev.agentpay.commons.loop.WakeLoop;
import dev.agentpay.webhook.delivery.repository.DeliveryRepository;
import dev.agentpay.webhook.delivery.repository.DeliveryRepository.Success;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

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

    @Inject
    DeliveryRepository deliveries;
    @Inject
    Pool pool;

    private final Queue<Waiting> queue = new ConcurrentLinkedQueue<>();
    private WakeLoop loop;

    @PostConstruct
    void init() {
        loop = new WakeLoop("webhook success recorder", null, this::writeGroup).start();
    }

    /** Completes when {@code success} is committed; fails with the group's error. */
    public Uni<Void> record(Success success) {
        return Uni.createFrom().emitter(em -> {
            queue.add(new Waiting(success, em));
            loop.wake();
        });
    }

    /** Writes one group of waiting successes; asks for another round while more are queued. */
    private Uni<Boolean> writeGroup() {
        List<Waiting> group = new ArrayList<>();
        for (Waiting w; group.size() < MAX_GROUP && (w = queue.poll()) != null; ) {
            group.add(w);
        }
        if (group.isEmpty()) {
            return Uni.createFrom().item(false);
        }
        return deliveries.recordSuccesses(pool, group.stream().map(Waiting::success).toList())
                .onItemOrFailure().transform((v, e) -> {
                    // each caller learns its own group's outcome; the loop goes on with the next group either way
                    group.forEach(w -> {
                        if (e == null) {
                            w.done().complete(null);
                        } else {
                            w.done().fail(e);
                        }
                    });
                    return !queue.isEmpty();
                });
    }
}
