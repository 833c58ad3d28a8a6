package dev.agentpay.anchor.client;

import dev.agentpay.anchor.anchoring.service.AnchorPipeline;
import io.smallrye.mutiny.Uni;
import java.math.BigInteger;
import java.util.concurrent.CompletableFuture;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Inject;

/**
 * Crash points for the restart tests, kept out of production code: this test-only alternative of the
 * chain client stops the pipeline at the armed point of the next broadcast, as if the process had died,
 * leaving the database exactly as a crash would. Unarmed, it is the real client.
 */
@Alternative
@Priority(1)
@ApplicationScoped
public class FaultInjection extends AnchorChainClient {

    /** Where the pipeline can be made to "die". */
    public enum Point {
        /** The signed transaction is stored, not broadcast. */
        AFTER_STORE,
        /** The transaction is broadcast (and mined on an instant chain), its receipt not recorded. */
        AFTER_BROADCAST
    }

    /** What the dying pipeline sees. */
    public static final class SimulatedCrash extends RuntimeException {
        SimulatedCrash(Point p) {
            super("simulated crash at " + p);
        }
    }

    @Inject
    AnchorPipeline pipeline;

    private volatile Point armed;
    private volatile CompletableFuture<Void> estimatesHeld;

    /**
     * Holds every gas estimate (the batcher's last chain call before it signs) until {@code gate} completes:
     * the batcher "freezes" between choosing its intents and signing them. Null releases nothing and holds nothing.
     */
    public void holdEstimates(CompletableFuture<Void> gate) {
        estimatesHeld = gate;
    }

    @Override
    public Uni<BigInteger> estimateGas(String from, String to, String data) {
        CompletableFuture<Void> gate = estimatesHeld;
        Uni<BigInteger> estimate = super.estimateGas(from, to, data);
        return gate == null ? estimate : estimate.call(() -> Uni.createFrom().completionStage(gate));
    }

    public void arm(Point p) {
        armed = p;
    }

    @Override
    public Uni<String> sendRawTransaction(String rawHex) {
        Point p = armed;
        if (p == Point.AFTER_STORE) {
            return crash(p);
        }
        Uni<String> sent = super.sendRawTransaction(rawHex);
        return p == Point.AFTER_BROADCAST ? sent.chain(hash -> crash(p)) : sent;
    }

    private Uni<String> crash(Point p) {
        armed = null;
        pipeline.stop();
        return Uni.createFrom().failure(new SimulatedCrash(p));
    }
}
