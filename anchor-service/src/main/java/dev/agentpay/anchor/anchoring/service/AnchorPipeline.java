package dev.agentpay.anchor.anchoring.service;

import dev.agentpay.commons.loop.WakeLoop;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * Runs anchoring: at start the chain check ({@link ChainGuard}) and the nonce reconciliation, then two
 * {@link WakeLoop}s on one clock (Vert.x timers): the {@link Batcher}, woken by new intents after
 * {@code anchor.batch-window} and every second as the safety net, and the {@link Confirmer}, every
 * {@code anchor.receipt-poll-interval}. Fees: {@link FeePolicy}; broadcasts: {@link Broadcaster}; nonce
 * gaps: {@link NonceGapHealer}; meters: {@link AnchorMetrics}.
 *
 * <p>Designed for a single signer and a single replica (see README); row locks keep a second replica
 * from double-anchoring but it would add no throughput.
 */
@ApplicationScoped
public class AnchorPipeline extends AnchorStage {

    private static final Logger LOG = Logger.getLogger(AnchorPipeline.class);

    @Inject
    ChainGuard guard;
    @Inject
    Batcher batcher;
    @Inject
    Confirmer confirmer;
    @Inject
    NonceGapHealer healer;
    @Inject
    MeterRegistry registry;
    @Inject
    Vertx vertx;

    private final AtomicBoolean active = new AtomicBoolean();
    private WakeLoop batchLoop;
    private WakeLoop confirmLoop;

    @PostConstruct
    void init() {
        batchLoop = new WakeLoop("anchor batch", vertx, () -> batcher.round().map(n -> n >= config.maxBatchSize()));
        confirmLoop = new WakeLoop("anchor confirm", vertx, () -> confirmer.round().replaceWith(false));
        registry.gauge("anchor.stalled", this, p -> p.stallReason() == null ? 0 : 1);
    }

    void onStart(@Observes StartupEvent ev) {
        start();
    }

    void onStop(@Observes ShutdownEvent ev) {
        stop();
    }

    /**
     * Checks the chain (id, contract, signer), reconciles the nonce and rebroadcasts stored but
     * unresolved transactions, then starts batching and confirming. Fails (and so fails start-up) on a
     * wrong chain or contract.
     */
    public synchronized void start() {
        if (active.get()) {
            return;
        }
        reconcile().await().atMost(config.startupTimeout().plusSeconds(30));
        confirmer.started();
        active.set(true);
        batchLoop.every(Duration.ofSeconds(1)).start();
        confirmLoop.every(config.receiptPollInterval()).start();
        LOG.infof("anchoring on chain %d, contract %s, signer %s", config.chainId(), config.contractAddress(), signer.address());
    }

    /** Stops batching and confirming (work in flight finishes or is abandoned, as in a crash). */
    public synchronized void stop() {
        active.set(false);
        confirmer.stopped();
        batchLoop.stop();
        confirmLoop.stop();
    }

    public boolean active() {
        return active.get();
    }

    Uni<Void> reconcile() {
        String me = signer.address();
        return guard.verify(config.chainId(), config.contractAddress(), me)
                .chain(() -> chain.transactionCount(me, true))
                .chain(pending -> repo.storedNextNonce(pool, me).chain(stored -> {
                    if (stored >= 0 && pending > stored) {
                        LOG.warnf("signer %s has %d transactions on chain but we allocated only up to %d: another party"
                                + " used the key; continuing from %d", me, pending, stored, pending);
                    } else if (stored > pending) {
                        LOG.infof("nonces %d..%d are stored but not known to the node; rebroadcasting", pending, stored - 1);
                    }
                    return repo.reconcileNonce(pool, me, pending);
                }))
                .chain(next -> repo.openTxs(pool, 10_000))
                .chain(broadcaster::broadcastAll);
    }

    /** New intents are stored: send a batch once the window has passed. */
    public void wake() {
        batchLoop.wakeIn(config.batchWindow());
    }

    /**
     * Why anchoring is stalled (readiness DOWN), or null: a nonce gap, or open transactions with none
     * confirmed for {@code anchor.stall-after}.
     */
    public String stallReason() {
        String gap = healer.reason();
        return gap != null ? gap : confirmer.stallReason();
    }
}
