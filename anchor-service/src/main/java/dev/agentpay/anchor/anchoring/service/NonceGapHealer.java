package dev.agentpay.anchor.anchoring.service;

import dev.agentpay.anchor.client.ChainRejectedException;
import dev.agentpay.anchor.anchoring.domain.OpenTx;
import dev.agentpay.anchor.anchoring.domain.SignedTx;
import dev.agentpay.anchor.anchoring.repository.AnchorRepository.StoredTx;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.jboss.logging.Logger;

/**
 * Nonce-gap healing (issue 16). A nonce gap: the chain's nonce for our signer is below our lowest open
 * transaction, so no open transaction can ever be mined (the chain lost transactions it had: a node or
 * chain reset, a revert, a switch of RPC provider, transactions dropped from a mempool). Once it has lasted
 * {@code anchor.rebroadcast-after}, the missing nonces are refilled in order: a nonce whose stored
 * transaction was confirmed gets those same signed bytes again (the chain regains the anchors it lost;
 * same hash), any other nonce a no-op transfer to ourselves. The open transactions then mine as signed:
 * each transition stays carried by exactly one transaction (re-signing them at new nonces would leave the
 * old bytes in some mempool, mineable later: a second {@code MandateAnchored}).
 */
@ApplicationScoped
public class NonceGapHealer extends AnchorStage {

    private static final Logger LOG = Logger.getLogger(NonceGapHealer.class);
    /** Most nonces refilled in one healing round; the next round goes on. */
    private static final int MAX_REFILL = 1000;

    @Inject
    FeePolicy fees;
    @Inject
    AnchorMetrics metrics;

    /** Since when the chain's nonce has been behind our lowest open transaction, or null. */
    private volatile Instant gapSince;
    private volatile String gapReason;
    private volatile Instant lastHeal;

    /** The gap as a stall reason, or null when there is none. */
    String reason() {
        return gapReason;
    }

    /** Looks for a gap below the open transactions (lowest nonce first) and heals it once it has lasted. */
    Uni<Void> healIfAny(List<OpenTx> all, long token) {
        // the active signer's nonces (during a rotation the outgoing signer's few open transactions are only
        // rebroadcast and confirmed: README, "Signer rotation", limits)
        String me = signer.address();
        List<OpenTx> open = all.stream().filter(t -> t.signer().equals(me)).toList();
        if (open.isEmpty()) {
            closed(-1);
            return Uni.createFrom().voidItem();
        }
        long lowest = open.get(0).nonce();
        return chain.transactionCount(me, false).flatMap(mined -> {
            if (mined >= lowest) {
                closed(mined);
                return Uni.createFrom().voidItem();
            }
            Instant now = Instant.now();
            if (gapSince == null) {
                gapSince = now;
                gapReason = "the chain's nonce for signer " + me + " is " + mined + " but the lowest open anchor transaction has nonce "
                        + lowest + ": the chain lost " + (lowest - mined) + " of our transactions (reset, revert, dropped)";
                metrics.gapsDetected.increment();
                LOG.errorf("anchoring stalled: %s; refilling the nonces in %s unless the node catches up", gapReason,
                        config.rebroadcastAfter());
            }
            if (gapSince.plus(config.rebroadcastAfter()).isAfter(now) || (lastHeal != null && lastHeal.plus(config.rebroadcastAfter()).isAfter(now))) {
                return Uni.createFrom().voidItem();
            }
            lastHeal = now;
            // the fillers are sent, not stored: check the signer is still ours right before (a stale filler is
            // harmless anyway: a nonce it takes from a stored transaction makes that one "replaced", re-queued)
            return pool.withTransaction(c -> lease.fence(c, token))
                    .chain(() -> refill(me, mined, Math.min(lowest, mined + MAX_REFILL), open));
        });
    }

    /** No gap (any more): {@code mined} is the chain's nonce, or -1 with nothing open. */
    void closed(long mined) {
        if (gapSince != null) {
            LOG.infof("nonce gap closed (chain nonce %d) after %.1f s; anchoring resumes", mined,
                    Duration.between(gapSince, Instant.now()).toMillis() / 1000.0);
            gapSince = null;
            gapReason = null;
            lastHeal = null;
        }
    }

    private Uni<Void> refill(String me, long from, long to, List<OpenTx> open) {
        return Uni.combine().all().unis(repo.txsBetween(pool, me, from, to), fees.current()).asTuple().flatMap(t -> {
            Map<Long, StoredTx> stored = new HashMap<>();
            t.getItem1().forEach(x -> stored.put(x.nonce(), x));
            FeePolicy.Fees f = t.getItem2();
            int[] counts = new int[2];
            List<Long> nonces = LongStream.range(from, to).boxed().toList();
            return Multi.createFrom().iterable(nonces).onItem().transformToUniAndConcatenate(n -> {
                StoredTx s = stored.get(n);
                if (s != null && "CONFIRMED".equals(s.status())) {
                    return chain.sendRawTransaction(s.raw()).replaceWith(true)
                            .onFailure(ChainRejectedException.class).recoverWithItem(e -> ((ChainRejectedException) e).alreadyKnownOrNonceUsed())
                            .flatMap(ok -> {
                                if (ok) {
                                    counts[0]++;
                                    metrics.refilledAgain.increment();
                                    return Uni.createFrom().voidItem();
                                }
                                return noop(n, f, counts);
                            });
                }
                return noop(n, f, counts);
            }).collect().last().chain(() -> {
                LOG.warnf("nonce gap: refilled nonces %d..%d (%d confirmed transactions sent again, %d no-op fillers); "
                        + "rebroadcasting %d open transactions", from, to - 1, counts[0], counts[1], open.size());
                return broadcaster.broadcastAll(open);
            });
        });
    }

    private Uni<Void> noop(long nonce, FeePolicy.Fees f, int[] counts) {
        SignedTx filler = signer.signNoop(nonce, f.tip(), f.maxFee());
        return chain.sendRawTransaction(filler.raw()).replaceWithVoid()
                .onFailure(ChainRejectedException.class).recoverWithUni(e -> {
                    if (!((ChainRejectedException) e).alreadyKnownOrNonceUsed()) {
                        LOG.errorf("nonce gap: no-op filler for nonce %d refused: %s", nonce, e.getMessage());
                    }
                    return Uni.createFrom().voidItem();
                })
                .invoke(() -> {
                    counts[1]++;
                    metrics.refilledNoop.increment();
                });
    }
}
