package dev.agentpay.anchor.anchoring.service;

import dev.agentpay.anchor.anchoring.domain.PendingItem;
import dev.agentpay.anchor.anchoring.domain.SignedTx;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.util.List;

/**
 * Turns pending intents into one {@code anchorBatch} transaction: its nonce taken from the database, and
 * the signed bytes, hash and intent binding committed together BEFORE the broadcast, so a crash at any
 * point leaves either nothing (intents still pending) or a stored transaction that is broadcast again
 * (same bytes, same hash) on restart.
 */
@ApplicationScoped
public class Batcher extends AnchorStage {

    @Inject
    AnchorContract contract;
    @Inject
    FeePolicy fees;
    @Inject
    AnchorMetrics metrics;
    @Inject
    SignerRotation rotation;

    /** Sends one batch of pending intents; emits how many intents it took. */
    Uni<Integer> round() {
        long token = lease.token(); // this round's effects commit under this token or not at all
        if (token < 0) {
            return Uni.createFrom().item(0);
        }
        // a rotation's step first: it sets the active signer (the one this batch is signed by) and moves the rotation on
        return rotation.step(token).chain(() -> repo.pending(pool, config.maxBatchSize())).flatMap(items -> {
            if (items.isEmpty()) {
                return Uni.createFrom().item(0);
            }
            String data = contract.encodeBatch(items);
            String me = signer.address();
            return Uni.combine().all().unis(fees.current(), chain.estimateGas(me, config.contractAddress(), data))
                    .asTuple()
                    .flatMap(t -> storeSigned(token, me, items, data, t.getItem1(), t.getItem2()))
                    .invoke(tx -> metrics.txSent.increment())
                    .call(tx -> broadcaster.broadcast(tx.nonce(), tx.hash(), tx.raw()))
                    .replaceWith(items.size());
        });
    }

    private Uni<SignedTx> storeSigned(long token, String me, List<PendingItem> items, String data, FeePolicy.Fees f,
            BigInteger gasEstimate) {
        if (!f.affordable()) {
            return Uni.createFrom().failure(new IllegalStateException("base fee " + f.baseFee() + " wei is above the fee cap "
                    + config.fees().maxFeeCapWei() + " wei; waiting"));
        }
        BigInteger gasLimit = fees.gasLimit(gasEstimate);
        List<String> ids = items.stream().map(PendingItem::transitionId).toList();
        return pool.withTransaction(c -> lease.fence(c, token).chain(() -> repo.lockNextNonce(c, me))
                .flatMap(nonce -> repo.lockPending(c, ids).flatMap(locked -> {
                    if (locked != ids.size()) {
                        // another round took some of them meanwhile: give the nonce back by rolling back
                        return Uni.createFrom().<SignedTx>failure(new IllegalStateException("intents changed during batching"));
                    }
                    SignedTx tx = signer.signAs(me, nonce, gasLimit, data, f.tip(), f.maxFee(), ids.size());
                    return repo.storeTx(c, me, tx, ids).replaceWith(tx);
                })));
    }
}
