package dev.agentpay.anchor.anchoring.service;

import dev.agentpay.commons.lease.HeldLease;
import dev.agentpay.commons.loop.WakeLoop;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
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
 * <p>One signer, any number of instances: the signer's lease ({@link SignerLease}) picks the one that
 * batches and confirms, and fences every effect with its token (README, "Several instances").
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
    SignerRotation rotation;
    @Inject
    MeterRegistry registry;
    @Inject
    Vertx vertx;

    private final AtomicBoolean active = new AtomicBoolean();
    private boolean holding;
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

    void onStop(@Observes ShutdownDelayInitiatedEvent ev) {
        // a clean shutdown lets the signer go at once: another instance takes it at its next try (1 s). First on
        // SIGTERM (pre-shutdown), while the database pool is certainly open (by the ShutdownEvent it may be closing).
        release();
    }

    /**
     * Checks the chain (id, contract, signer; fails, and so fails start-up, on a wrong chain or contract),
     * then keeps the signer's lease ({@link SignerLease}): while this instance holds it, the nonce is
     * reconciled, stored but unresolved transactions are broadcast again, and batching and confirming run.
     * An instance that does not hold it consumes and stores intents and takes the signer over when the
     * holder stops renewing (README, "Several instances").
     */
    public synchronized void start() {
        if (holding) {
            return;
        }
        // the active signer is the database's (a rotation may have moved it): the guard checks that one's authorisation
        rotation.refreshNow().await().atMost(config.startupTimeout());
        guard.verify(config.chainId(), config.contractAddress(), signer.address()).await().atMost(config.startupTimeout().plusSeconds(30));
        holding = true;
        lease.hold(new HeldLease.Owner() {
            @Override
            public Uni<Void> acquired(long token) {
                return begin(token);
            }

            @Override
            public void lost(long token) {
                end();
            }
        }).start().await().atMost(config.startupTimeout().plusSeconds(30));
        if (!active.get()) {
            LOG.infof("anchoring: the signer is held by another instance; this one (%s) stores intents and stands by", lease.holder());
        }
    }

    /** Stops batching and confirming and stops renewing the signer's lease (work in flight finishes or is abandoned, as in a crash). */
    public synchronized void stop() {
        holding = false;
        lease.stop();
        end();
    }

    /** Stops, letting the signer's lease go at once (a clean shutdown). */
    public synchronized void release() {
        holding = false;
        lease.release().await().atMost(config.startupTimeout());
        end();
    }

    private Uni<Void> begin(long token) {
        return reconcile(token).invoke(() -> {
            confirmer.started();
            active.set(true);
            batchLoop.every(Duration.ofSeconds(1)).start();
            confirmLoop.every(config.receiptPollInterval()).start();
            LOG.infof("anchoring on chain %d, contract %s, signer %s (instance %s, fencing token %d)", config.chainId(),
                    config.contractAddress(), signer.address(), lease.holder(), token);
        });
    }

    private void end() {
        active.set(false);
        confirmer.stopped();
        batchLoop.stop();
        confirmLoop.stop();
    }

    public boolean active() {
        return active.get();
    }

    /** Nonce reconciliation under the signer's fencing token, then the stored but unresolved transactions broadcast again. */
    Uni<Void> reconcile(long token) {
        return rotation.refreshNow().chain(me -> reconcile(token, me));
    }

    private Uni<Void> reconcile(long token, String me) {
        return chain.transactionCount(me, true)
                .chain(pending -> pool.withTransaction(c -> lease.fence(c, token).chain(() -> repo.storedNextNonce(c, me)).chain(stored -> {
                    if (stored >= 0 && pending > stored) {
                        LOG.warnf("signer %s has %d transactions on chain but we allocated only up to %d: another party"
                                + " used the key; continuing from %d", me, pending, stored, pending);
                    } else if (stored > pending) {
                        LOG.infof("nonces %d..%d are stored but not known to the node; rebroadcasting", pending, stored - 1);
                    }
                    return repo.reconcileNonce(c, me, pending);
                })))
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
