package dev.agentpay.anchor.anchoring.service;

import dev.agentpay.anchor.anchoring.domain.OpenTx;
import dev.agentpay.anchor.anchoring.domain.SentItem;
import dev.agentpay.anchor.anchoring.repository.AnchorRepository.ReceiptRow;
import dev.agentpay.commons.events.AnchorReceiptEvent;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.outbox.Outbox;
import dev.agentpay.commons.outbox.OutboxRelay;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.jboss.logging.Logger;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

/**
 * Resolves open transactions: heals a nonce gap below them ({@link NonceGapHealer}); once a receipt is
 * {@code anchor.confirmations} deep, stores one receipt per transition and appends its
 * {@link AnchorReceiptEvent} to the outbox in the same transaction; rebroadcasts the stale; re-queues the
 * intents of reverted transactions and of transactions whose nonce went to another transaction.
 */
@ApplicationScoped
public class Confirmer extends AnchorStage {

    private static final Logger LOG = Logger.getLogger(Confirmer.class);

    @Inject
    AnchorContract contract;
    @Inject
    NonceGapHealer healer;
    @Inject
    Outbox outbox;
    @Inject
    OutboxRelay relay;
    @Inject
    AnchorMetrics metrics;

    /** Nonces whose transaction looked replaced, and since when (a replacement is declared only if it lasts). */
    private final Map<String, Instant> suspectSince = new ConcurrentHashMap<>();
    /** Receipts are recorded only while the pipeline runs (a stopped pipeline is a crashed process). */
    private volatile boolean recording;
    /** When a transaction was last confirmed (or the pipeline started): with open transactions, progress. */
    private volatile Instant lastProgress = Instant.now();
    private volatile Instant oldestOpen;

    void started() {
        lastProgress = Instant.now();
        recording = true;
    }

    void stopped() {
        recording = false;
    }

    /** Open transactions with none confirmed for {@code anchor.stall-after}, as a stall reason; or null. */
    String stallReason() {
        Instant oldest = oldestOpen;
        Instant limit = Instant.now().minus(config.stallAfter());
        if (recording && oldest != null && oldest.isBefore(limit) && lastProgress.isBefore(limit)) {
            return "open anchor transactions since " + oldest + ", none confirmed since " + lastProgress;
        }
        return null;
    }

    /** One pass over open transactions: heal a nonce gap, record deep-enough receipts, rebroadcast the stale, re-queue the dropped. */
    Uni<Void> round() {
        long token = lease.token(); // this round's effects commit under this token or not at all
        if (token < 0) {
            return Uni.createFrom().voidItem();
        }
        return repo.openTxs(pool, 200).flatMap(open -> {
            if (open.isEmpty()) {
                oldestOpen = null;
                healer.closed(-1);
                return Uni.createFrom().voidItem();
            }
            oldestOpen = open.stream().map(OpenTx::createdAt).min(Instant::compareTo).orElse(null);
            return healer.healIfAny(open, token).chain(() -> chain.blockNumber()).flatMap(head -> Multi.createFrom().iterable(open)
                    .onItem().transformToUni(tx -> check(tx, head, token)).merge(8)
                    .collect().last().replaceWithVoid());
        });
    }

    private Uni<Void> check(OpenTx tx, long head, long token) {
        return chain.receipt(tx.hash()).flatMap(r -> {
            if (r.isPresent()) {
                long block = r.get().getBlockNumber().longValueExact();
                return head - block + 1 >= config.confirmations() ? record(tx, r.get(), token) : Uni.createFrom().voidItem();
            }
            return chain.transactionCount(tx.signer(), false).flatMap(mined -> {
                if (mined > tx.nonce()) {
                    // The nonce looks used but our receipt is missing. Only a transaction the node no longer
                    // knows, still missing after the grace period, was replaced: a single look can race the
                    // node's indexing (FaultIT saw mined transactions "replaced" and their transitions anchored twice).
                    return chain.receipt(tx.hash()).flatMap(again -> again.isPresent() ? Uni.createFrom().voidItem()
                            : chain.knows(tx.hash()).flatMap(known -> {
                                if (known) {
                                    suspectSince.remove(tx.signer() + ":" + tx.nonce());
                                    return Uni.createFrom().voidItem();
                                }
                                Instant since = suspectSince.computeIfAbsent(tx.signer() + ":" + tx.nonce(), n -> Instant.now());
                                if (since.plus(config.rebroadcastAfter()).isAfter(Instant.now())) {
                                    return Uni.createFrom().voidItem();
                                }
                                suspectSince.remove(tx.signer() + ":" + tx.nonce());
                                return dropped(tx, token);
                            }));
                }
                suspectSince.remove(tx.signer() + ":" + tx.nonce());
                Instant last = tx.broadcastAt() != null ? tx.broadcastAt() : tx.createdAt().minus(config.rebroadcastAfter());
                if (tx.broadcastAt() == null && tx.createdAt().isAfter(Instant.now().minusSeconds(1))) {
                    return Uni.createFrom().voidItem(); // the batcher is still broadcasting it
                }
                if (last.plus(config.rebroadcastAfter()).isBefore(Instant.now())) {
                    LOG.infof("rebroadcasting anchor tx %s (nonce %d)", tx.hash(), tx.nonce());
                    return broadcaster.broadcast(tx.nonce(), tx.hash(), tx.raw());
                }
                return Uni.createFrom().voidItem();
            });
        });
    }

    private Uni<Void> dropped(OpenTx tx, long token) {
        LOG.errorf("anchor tx %s (nonce %d) was replaced by another transaction of the signer; re-queueing its transitions",
                tx.hash(), tx.nonce());
        return pool.withTransaction(c -> lease.fence(c, token).chain(() -> repo.failTx(c, tx.signer(), tx.nonce(),
                "nonce used by another transaction")));
    }

    private Uni<Void> record(OpenTx tx, TransactionReceipt receipt, long token) {
        if (!recording) {
            return Uni.createFrom().voidItem();
        }
        long block = receipt.getBlockNumber().longValueExact();
        if (!tx.anchors()) {
            return recordRotationTx(tx, receipt, block, token);
        }
        return pool.withTransaction(c -> lease.fence(c, token).chain(() -> repo.lockSentItems(c, tx.signer(), tx.nonce())).flatMap(items -> {
            if (items.isEmpty()) {
                return Uni.createFrom().item(List.<SentItem>of());
            }
            if (!receipt.isStatusOK()) {
                LOG.errorf("anchor tx %s reverted in block %d; re-queueing %d transitions", tx.hash(), block, items.size());
                return repo.failTx(c, tx.signer(), tx.nonce(), "reverted in block " + block).replaceWith(List.<SentItem>of());
            }
            List<AnchorContract.Anchored> logs = contract.anchoredLogs(receipt);
            List<ReceiptRow> rows = new ArrayList<>(items.size());
            List<AnchorReceiptEvent> events = new ArrayList<>(items.size());
            for (SentItem item : items) {
                AnchorContract.Anchored log = item.batchIndex() < logs.size() ? logs.get(item.batchIndex()) : null;
                if (log == null || !log.mandateHash().equalsIgnoreCase(item.mandateHash()) || !log.state().equals(item.state())) {
                    LOG.errorf("anchor tx %s does not carry transition %s at position %d; re-queueing", tx.hash(),
                            item.transitionId(), item.batchIndex());
                    return repo.failTx(c, tx.signer(), tx.nonce(), "receipt logs do not match the batch").replaceWith(List.<SentItem>of());
                }
                rows.add(new ReceiptRow(item.transitionId(), item.mandateId(), item.mandateHash(), item.state(),
                        config.chainId(), tx.hash(), block, log.logIndex(), tx.signer()));
                events.add(new AnchorReceiptEvent(new EventHeader(receiptEventId(config.chainId(), item.transitionId()), AnchorReceiptEvent.TYPE,
                        item.mandateId(), item.partnerId(), Instant.now(), AnchorReceiptEvent.SCHEMA_VERSION),
                        item.transitionId(), item.mandateHash(), item.state(), config.chainId(), tx.hash(), block, log.logIndex(),
                        config.contractAddress().toLowerCase(Locale.ROOT), tx.signer()));
            }
            return repo.insertReceipts(c, rows)
                    // pipelined on the transaction's connection rather than one round trip after another
                    // each receipt continues the trace of the mandate event it answers
                    .chain(() -> Uni.join().all(IntStream.range(0, events.size())
                            .mapToObj(i -> outbox.append(c, events.get(i), items.get(i).traceParent())).toList()).andFailFast())
                    .chain(() -> repo.markAnchored(c, tx.signer(), tx.nonce(), block))
                    .replaceWith(items);
        })).invoke(items -> {
            if (items == null || items.isEmpty()) {
                return;
            }
            // after the commit: wake the relay to publish now rather than at its next poll
            relay.wake();
            Instant now = Instant.now();
            for (SentItem i : items) {
                metrics.receiptRecorded(i.eventAt(), now);
            }
            metrics.anchored.increment(items.size());
            lastProgress = now;
            LOG.debugf("anchored %d transitions: %s", items.size(), explorerLink(tx.hash()));
        }).replaceWithVoid();
    }

    /** A rotation's addSigner/removeSigner transaction: confirmed (SignerRotation moves on) or, reverted, failed (sent again). */
    private Uni<Void> recordRotationTx(OpenTx tx, TransactionReceipt receipt, long block, long token) {
        return pool.withTransaction(c -> lease.fence(c, token).chain(() -> repo.lockOpenTx(c, tx.signer(), tx.nonce())).flatMap(open -> {
            if (!open) {
                return Uni.createFrom().voidItem();
            }
            if (!receipt.isStatusOK()) {
                LOG.errorf("signer rotation tx %s (%s) reverted in block %d", tx.hash(), tx.kind(), block);
                return repo.failTx(c, tx.signer(), tx.nonce(), "reverted in block " + block);
            }
            return repo.markAnchored(c, tx.signer(), tx.nonce(), block);
        })).invoke(() -> lastProgress = Instant.now());
    }

    /**
     * Deterministic per transition and chain, so consumers can dedupe even a receipt recorded twice by mistake, and
     * the receipts of one transition on several anchor chains (one anchor-service deployment per chain, README
     * "Several anchor chains") are distinct events.
     */
    static UUID receiptEventId(long chainId, String transitionId) {
        return UUID.nameUUIDFromBytes(("anchor-receipt:" + chainId + ":" + transitionId).getBytes(StandardCharsets.UTF_8));
    }

    /** For the explorer link of a transaction. */
    public String explorerLink(String txHash) {
        return config.explorerUrl().replaceAll("/+$", "") + "/tx/" + txHash;
    }
}
