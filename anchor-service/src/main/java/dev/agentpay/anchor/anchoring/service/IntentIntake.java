package dev.agentpay.anchor.anchoring.service;

import dev.agentpay.anchor.anchoring.domain.AnchorIntent;
import dev.agentpay.anchor.anchoring.repository.AnchorRepository;
import dev.agentpay.commons.consumer.IdempotentConsumer;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;

/**
 * Stores the anchor intents of a batch of mandate events through the platform's idempotent consumer:
 * the events' {@code processed_event} marks and the new intents commit in one transaction, so a
 * redelivered event stores nothing (the transition id stays the intent's key as well). Then wakes the batcher.
 */
@ApplicationScoped
public class IntentIntake {

    @Inject
    AnchorRepository repo;
    @Inject
    IdempotentConsumer idempotent;
    @Inject
    AnchorPipeline pipeline;
    @Inject
    Pool pool;

    /** Emits how many intents were new. */
    public Uni<Integer> store(String consumer, List<AnchorIntent> intents) {
        return pool.withTransaction(tx -> idempotent.fresh(tx, consumer, intents, AnchorIntent::eventId)
                        .flatMap(fresh -> repo.insertIntents(tx, fresh)))
                .invoke(n -> {
                    if (n > 0) {
                        pipeline.wake();
                    }
                });
    }
}
