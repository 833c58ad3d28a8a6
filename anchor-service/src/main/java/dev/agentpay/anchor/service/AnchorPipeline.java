package dev.agentpay.anchor.service;

import dev.agentpay.anchor.client.AnchorChainClient;
import dev.agentpay.anchor.client.ChainRejectedException;
import dev.agentpay.anchor.client.ChainUnavailableException;
import dev.agentpay.anchor.config.AnchorConfig;
import dev.agentpay.anchor.domain.OpenTx;
import dev.agentpay.anchor.domain.PendingItem;
import dev.agentpay.anchor.domain.SentItem;
import dev.agentpay.anchor.domain.SignedTx;
import dev.agentpay.anchor.repository.AnchorRepository;
import dev.agentpay.anchor.repository.AnchorRepository.ReceiptRow;
import dev.agentpay.commons.events.AnchorReceiptEvent;
import dev.agentpay.commons.outbox.Outbox;
import dev.agentpay.commons.outbox.OutboxRelay;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;
import org.web3j.abi.FunctionReturnDecoder;
import org.web3j.abi.TypeReference;
import org.web3j.abi.datatypes.Address;
import org.web3j.abi.datatypes.Type;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

/**
 * Turns stored anchor intents into anchor transactions and their receipts into anchor-receipt events.
 *
 * <p>Batcher: intents that arrive within {@code anchor.batch-window} go into one {@code anchorBatch}
 * transaction. Its nonce is taken from the database, and the signed bytes, hash and intent binding are
 * committed together BEFORE the broadcast, so a crash at any point leaves either nothing (intents still
 * pending) or a stored transaction that is broadcast again (same bytes, same hash) on restart.
 *
 * <p>Confirmer: polls receipts of open transactions; once a receipt is {@code anchor.confirmations}
 * deep it stores one receipt per transition and appends its {@link AnchorReceiptEvent} to the outbox
 * in the same transaction. Reverted transactions and transactions whose nonce went to another
 * transaction re-queue their intents.
 *
 * <p>Designed for a single signer and a single replica (see README); row locks keep a second replica
 * from double-anchoring but it would add no throughput.
 */
@ApplicationScoped
public class AnchorPipeline {

    private static final Logger LOG = Logger.getLogger(AnchorPipeline.class);

    @Inject
    AnchorConfig config;
    @Inject
    AnchorChainClient chain;
    @Inject
    AnchorRepository repo;
    @Inject
    AnchorSigner signer;
    @Inject
    AnchorContract contract;
    @Inject
    Outbox outbox;
    @Inject
    OutboxRelay relay;
    @Inject
    Vertx vertx;

    /** Nonces whose transaction looked replaced, and since when (a replacement is declared only if it lasts). */
    private final java.util.Map<Long, Instant> suspectSince = new java.util.concurrent.ConcurrentHashMap<>();
    @Inject
    FaultInjection faults;
    @Inject
    MeterRegistry registry;

    private final AtomicBoolean active = new AtomicBoolean();
    private final AtomicBoolean batchScheduled = new AtomicBoolean();
    private final AtomicBoolean batchRunning = new AtomicBoolean();
    private final AtomicBoolean batchAgain = new AtomicBoolean();
    private final AtomicBoolean confirmRunning = new AtomicBoolean();
    private volatile long confirmTimer = -1;

    private Counter txSent;
    private Counter anchored;
    private Counter gapsDetected;
    private Counter refilledAgain;
    private Counter refilledNoop;
    private Timer commitToReceipt;

    @PostConstruct
    void metrics() {
        txSent = registry.counter("anchor.transactions.signed");
        anchored = registry.counter("anchor.transitions.anchored");
        gapsDetected = registry.counter("anchor.nonce.gaps");
        refilledAgain = registry.counter("anchor.nonce.refilled", "kind", "confirmed-tx-again");
        refilledNoop = registry.counter("anchor.nonce.refilled", "kind", "noop");
        registry.gauge("anchor.stalled", this, p -> p.stallReason() == null ? 0 : 1);
        commitToReceipt = Timer.builder("anchor.commit.to.receipt")
                .description("time from the transition's event to its recorded anchor receipt")
                .publishPercentiles(0.5, 0.99).register(registry);
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
        lastProgress = Instant.now();
        active.set(true);
        confirmTimer = vertx.setPeriodic(config.receiptPollInterval().toMillis(), id -> confirm());
        wake();
        LOG.infof("anchoring on chain %d, contract %s, signer %s", config.chainId(), config.contractAddress(), signer.address());
    }

    /** Stops batching and confirming (work in flight finishes or is abandoned, as in a crash). */
    public synchronized void stop() {
        active.set(false);
        if (confirmTimer >= 0) {
            vertx.cancelTimer(confirmTimer);
            confirmTimer = -1;
        }
    }

    public boolean active() {
        return active.get();
    }

    Uni<Void> reconcile() {
        String me = signer.address();
        return verifyChain(config.chainId(), config.contractAddress(), me)
                .chain(() -> chain.transactionCount(me, true))
                .chain(pending -> repo.storedNextNonce(me).chain(stored -> {
                    if (stored >= 0 && pending > stored) {
                        LOG.warnf("signer %s has %d transactions on chain but we allocated only up to %d: another party"
                                + " used the key; continuing from %d", me, pending, stored, pending);
                    } else if (stored > pending) {
                        LOG.infof("nonces %d..%d are stored but not known to the node; rebroadcasting", pending, stored - 1);
                    }
                    return repo.reconcileNonce(me, pending);
                }))
                .chain(next -> repo.openTxs(10_000))
                .chain(open -> Multi.createFrom().iterable(open)
                        .onItem().transformToUniAndConcatenate(tx -> broadcast(tx.nonce(), tx.hash(), tx.raw()))
                        .collect().last())
                .replaceWithVoid();
    }

    /**
     * Start-up guard: the RPC must serve {@code expectedChainId}, a contract must exist at
     * {@code contractAddress}, and its signer must be {@code signerAddress}. Fails with the reason otherwise.
     */
    public Uni<Void> verifyChain(long expectedChainId, String contractAddress, String signerAddress) {
        return chain.chainId()
                .onFailure(ChainUnavailableException.class).retry().withBackOff(Duration.ofMillis(500), Duration.ofSeconds(5))
                .expireIn(config.startupTimeout().toMillis())
                .invoke(id -> {
                    if (id != expectedChainId) {
                        throw new IllegalStateException("refusing to start: the anchor RPC serves chain id " + id
                                + " but anchor.chain-id is " + expectedChainId);
                    }
                })
                .chain(() -> chain.code(contractAddress))
                .invoke(code -> {
                    if (code == null || code.isBlank() || code.equals("0x")) {
                        throw new IllegalStateException("refusing to start: no contract at " + contractAddress);
                    }
                })
                .chain(() -> chain.ethCall(signerAddress, contractAddress, contract.encodeSignerCall()))
                .invoke(ret -> {
                    @SuppressWarnings({"rawtypes", "unchecked"})
                    List<Type> out = FunctionReturnDecoder.decode(ret, (List) List.of(new TypeReference<Address>() { }));
                    String onChain = out.isEmpty() ? "(none)" : out.get(0).getValue().toString();
                    if (!signerAddress.equalsIgnoreCase(onChain)) {
                        throw new IllegalStateException("refusing to start: the contract's signer is " + onChain
                                + " but the configured key is for " + signerAddress);
                    }
                })
                .replaceWithVoid();
    }

    /** New intents are stored: send a batch once the window has passed. */
    public void wake() {
        if (!active.get()) {
            return;
        }
        if (batchScheduled.compareAndSet(false, true)) {
            vertx.setTimer(Math.max(1, config.batchWindow().toMillis()), id -> {
                batchScheduled.set(false);
                runBatches();
            });
        }
    }

    /** Safety net: intents left pending by a failed round (RPC down) are retried. */
    @Scheduled(every = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void poll() {
        wake();
    }

    private void runBatches() {
        if (!active.get()) {
            return;
        }
        if (!batchRunning.compareAndSet(false, true)) {
            batchAgain.set(true);
            return;
        }
        batchAgain.set(false);
        batchRound().subscribe().with(n -> {
            batchRunning.set(false);
            if (n >= config.maxBatchSize() || batchAgain.get()) {
                runBatches();
            }
        }, e -> {
            batchRunning.set(false);
            onFailure("batch", e);
        });
    }

    /** Sends one batch of pending intents; emits how many intents it took. */
    Uni<Integer> batchRound() {
        return repo.pending(config.maxBatchSize()).flatMap(items -> {
            if (items.isEmpty()) {
                return Uni.createFrom().item(0);
            }
            String data = contract.encodeBatch(items);
            return Uni.combine().all().unis(baseFee(), chain.estimateGas(signer.address(), config.contractAddress(), data))
                    .asTuple()
                    .flatMap(t -> storeSigned(items, data, t.getItem1(), t.getItem2()))
                    .invoke(tx -> {
                        txSent.increment();
                        faults.trip(FaultInjection.Point.AFTER_STORE);
                    })
                    .call(tx -> broadcast(tx.nonce(), tx.hash(), tx.raw()))
                    .invoke(tx -> faults.trip(FaultInjection.Point.AFTER_BROADCAST))
                    .replaceWith(items.size());
        });
    }

    private volatile BigInteger baseFee;
    private volatile long baseFeeAt;

    /** The latest base fee, re-read at most about once a block (the fee multiplier absorbs the drift). */
    private Uni<BigInteger> baseFee() {
        if (baseFee != null && System.nanoTime() - baseFeeAt < 1_000_000_000L) {
            return Uni.createFrom().item(baseFee);
        }
        return chain.latestBaseFee().invoke(f -> {
            baseFee = f;
            baseFeeAt = System.nanoTime();
        });
    }

    private Uni<SignedTx> storeSigned(List<PendingItem> items, String data, BigInteger baseFee, BigInteger gasEstimate) {
        AnchorConfig.Fees fees = config.fees();
        BigInteger tip = fees.maxPriorityFeeWei();
        BigInteger maxFee = baseFee.multiply(BigInteger.valueOf(fees.baseFeeMultiplier())).add(tip).min(fees.maxFeeCapWei());
        if (maxFee.compareTo(baseFee.add(tip)) < 0) {
            return Uni.createFrom().failure(new IllegalStateException("base fee " + baseFee + " wei is above the fee cap "
                    + fees.maxFeeCapWei() + " wei; waiting"));
        }
        BigInteger gasLimit = gasEstimate.multiply(BigInteger.valueOf(100L + fees.gasLimitMarginPercent())).divide(BigInteger.valueOf(100));
        List<String> ids = items.stream().map(PendingItem::transitionId).toList();
        String me = signer.address();
        return repo.pool().withTransaction(c -> repo.lockNextNonce(c, me)
                .flatMap(nonce -> repo.lockPending(c, ids).flatMap(locked -> {
                    if (locked != ids.size()) {
                        // another round took some of them meanwhile: give the nonce back by rolling back
                        return Uni.createFrom().<SignedTx>failure(new IllegalStateException("intents changed during batching"));
                    }
                    SignedTx tx = signer.sign(nonce, gasLimit, data, tip, maxFee, ids.size());
                    return repo.storeTx(c, me, tx, ids).replaceWith(tx);
                })));
    }

    /** Broadcasts stored bytes; failures are left to the confirmer's rebroadcast (the bytes are safe in the DB). */
    private Uni<Void> broadcast(long nonce, String hash, String raw) {
        return chain.sendRawTransaction(raw)
                .replaceWith(true)
                .onFailure(ChainRejectedException.class).recoverWithUni(e -> {
                    if (((ChainRejectedException) e).alreadyKnownOrNonceUsed()) {
                        return Uni.createFrom().item(true);
                    }
                    LOG.errorf("anchor tx %s (nonce %d) rejected by the node, will retry: %s", hash, nonce, e.getMessage());
                    return Uni.createFrom().item(false);
                })
                .onFailure(ChainUnavailableException.class).recoverWithUni(e -> {
                    LOG.warnf("anchor tx %s (nonce %d) not broadcast, will retry: %s", hash, nonce, e.getMessage());
                    return Uni.createFrom().item(false);
                })
                .flatMap(sent -> sent ? repo.markBroadcast(nonce) : Uni.createFrom().voidItem());
    }

    private void confirm() {
        if (!active.get() || !confirmRunning.compareAndSet(false, true)) {
            return;
        }
        confirmRound().subscribe().with(x -> confirmRunning.set(false), e -> {
            confirmRunning.set(false);
            onFailure("confirm", e);
        });
    }

    /** One pass over open transactions: heal a nonce gap, record deep-enough receipts, rebroadcast the stale, re-queue the dropped. */
    Uni<Void> confirmRound() {
        return repo.openTxs(200).flatMap(open -> {
            if (open.isEmpty()) {
                oldestOpen = null;
                gapClosed(-1);
                return Uni.createFrom().voidItem();
            }
            oldestOpen = open.stream().map(OpenTx::createdAt).min(Instant::compareTo).orElse(null);
            return healGapIfAny(open).chain(() -> chain.blockNumber()).flatMap(head -> Multi.createFrom().iterable(open)
                    .onItem().transformToUni(tx -> check(tx, head)).merge(8)
                    .collect().last().replaceWithVoid());
        });
    }

    // ---- nonce-gap healing (issue 16) ----

    /** Since when the chain's nonce has been behind our lowest open transaction, or null. */
    private volatile Instant gapSince;
    private volatile String gapReason;
    private volatile Instant lastHeal;
    /** When a transaction was last confirmed (or the pipeline started): with open transactions, progress. */
    private volatile Instant lastProgress = Instant.now();
    private volatile Instant oldestOpen;
    /** Most nonces refilled in one healing round; the next round goes on. */
    private static final int MAX_REFILL = 1000;

    /**
     * A nonce gap: the chain's nonce for our signer is below our lowest open transaction, so no open
     * transaction can ever be mined (the chain lost transactions it had: a node or chain reset, a revert,
     * a switch of RPC provider, transactions dropped from a mempool). Once it has lasted
     * {@code anchor.rebroadcast-after}, the missing nonces are refilled in order: a nonce whose stored
     * transaction was confirmed gets those same signed bytes again (the chain regains the anchors it lost;
     * same hash), any other nonce a no-op transfer to ourselves. The open transactions then mine as
     * signed: each transition stays carried by exactly one transaction (re-signing them at new nonces
     * would leave the old bytes in some mempool, mineable later: a second {@code MandateAnchored}).
     */
    private Uni<Void> healGapIfAny(List<OpenTx> open) {
        long lowest = open.get(0).nonce();
        String me = signer.address();
        return chain.transactionCount(me, false).flatMap(mined -> {
            if (mined >= lowest) {
                gapClosed(mined);
                return Uni.createFrom().voidItem();
            }
            Instant now = Instant.now();
            if (gapSince == null) {
                gapSince = now;
                gapReason = "the chain's nonce for signer " + me + " is " + mined + " but the lowest open anchor transaction has nonce "
                        + lowest + ": the chain lost " + (lowest - mined) + " of our transactions (reset, revert, dropped)";
                gapsDetected.increment();
                LOG.errorf("anchoring stalled: %s; refilling the nonces in %s unless the node catches up", gapReason,
                        config.rebroadcastAfter());
            }
            if (gapSince.plus(config.rebroadcastAfter()).isAfter(now) || (lastHeal != null && lastHeal.plus(config.rebroadcastAfter()).isAfter(now))) {
                return Uni.createFrom().voidItem();
            }
            lastHeal = now;
            return refill(mined, Math.min(lowest, mined + MAX_REFILL), open);
        });
    }

    private void gapClosed(long mined) {
        if (gapSince != null) {
            LOG.infof("nonce gap closed (chain nonce %d) after %.1f s; anchoring resumes", mined,
                    Duration.between(gapSince, Instant.now()).toMillis() / 1000.0);
            gapSince = null;
            gapReason = null;
            lastHeal = null;
        }
    }

    private Uni<Void> refill(long from, long to, List<OpenTx> open) {
        return Uni.combine().all().unis(repo.txsBetween(from, to), baseFee()).asTuple().flatMap(t -> {
            java.util.Map<Long, AnchorRepository.StoredTx> stored = new java.util.HashMap<>();
            t.getItem1().forEach(x -> stored.put(x.nonce(), x));
            BigInteger tip = config.fees().maxPriorityFeeWei();
            BigInteger maxFee = t.getItem2().multiply(BigInteger.valueOf(config.fees().baseFeeMultiplier())).add(tip)
                    .min(config.fees().maxFeeCapWei());
            int[] counts = new int[2];
            List<Long> nonces = java.util.stream.LongStream.range(from, to).boxed().toList();
            return Multi.createFrom().iterable(nonces).onItem().transformToUniAndConcatenate(n -> {
                AnchorRepository.StoredTx s = stored.get(n);
                if (s != null && "CONFIRMED".equals(s.status())) {
                    return chain.sendRawTransaction(s.raw()).replaceWith(true)
                            .onFailure(ChainRejectedException.class).recoverWithItem(e -> ((ChainRejectedException) e).alreadyKnownOrNonceUsed())
                            .flatMap(ok -> {
                                if (ok) {
                                    counts[0]++;
                                    refilledAgain.increment();
                                    return Uni.createFrom().voidItem();
                                }
                                return noop(n, tip, maxFee, counts);
                            });
                }
                return noop(n, tip, maxFee, counts);
            }).collect().last().chain(() -> {
                LOG.warnf("nonce gap: refilled nonces %d..%d (%d confirmed transactions sent again, %d no-op fillers); "
                        + "rebroadcasting %d open transactions", from, to - 1, counts[0], counts[1], open.size());
                return Multi.createFrom().iterable(open).onItem()
                        .transformToUniAndConcatenate(tx -> broadcast(tx.nonce(), tx.hash(), tx.raw())).collect().last();
            }).replaceWithVoid();
        });
    }

    private Uni<Void> noop(long nonce, BigInteger tip, BigInteger maxFee, int[] counts) {
        SignedTx filler = signer.signNoop(nonce, tip, maxFee);
        return chain.sendRawTransaction(filler.raw()).replaceWithVoid()
                .onFailure(ChainRejectedException.class).recoverWithUni(e -> {
                    if (!((ChainRejectedException) e).alreadyKnownOrNonceUsed()) {
                        LOG.errorf("nonce gap: no-op filler for nonce %d refused: %s", nonce, e.getMessage());
                    }
                    return Uni.createFrom().voidItem();
                })
                .invoke(() -> {
                    counts[1]++;
                    refilledNoop.increment();
                });
    }

    /**
     * Why anchoring is stalled (readiness DOWN), or null: a nonce gap, or open transactions with none
     * confirmed for {@code anchor.stall-after}.
     */
    public String stallReason() {
        String gap = gapReason;
        if (gap != null) {
            return gap;
        }
        Instant oldest = oldestOpen;
        Instant limit = Instant.now().minus(config.stallAfter());
        if (active.get() && oldest != null && oldest.isBefore(limit) && lastProgress.isBefore(limit)) {
            return "open anchor transactions since " + oldest + ", none confirmed since " + lastProgress;
        }
        return null;
    }

    private Uni<Void> check(OpenTx tx, long head) {
        return chain.receipt(tx.hash()).flatMap(r -> {
            if (r.isPresent()) {
                long block = r.get().getBlockNumber().longValueExact();
                return head - block + 1 >= config.confirmations() ? record(tx, r.get()) : Uni.createFrom().voidItem();
            }
            return chain.transactionCount(signer.address(), false).flatMap(mined -> {
                if (mined > tx.nonce()) {
                    // The nonce looks used but our receipt is missing. Only a transaction the node no longer
                    // knows, still missing after the grace period, was replaced: a single look can race the
                    // node's indexing (FaultIT saw mined transactions "replaced" and their transitions anchored twice).
                    return chain.receipt(tx.hash()).flatMap(again -> again.isPresent() ? Uni.createFrom().voidItem()
                            : chain.knows(tx.hash()).flatMap(known -> {
                                if (known) {
                                    suspectSince.remove(tx.nonce());
                                    return Uni.createFrom().voidItem();
                                }
                                Instant since = suspectSince.computeIfAbsent(tx.nonce(), n -> Instant.now());
                                if (since.plus(config.rebroadcastAfter()).isAfter(Instant.now())) {
                                    return Uni.createFrom().voidItem();
                                }
                                suspectSince.remove(tx.nonce());
                                return dropped(tx);
                            }));
                }
                suspectSince.remove(tx.nonce());
                Instant last = tx.broadcastAt() != null ? tx.broadcastAt() : tx.createdAt().minus(config.rebroadcastAfter());
                if (tx.broadcastAt() == null && tx.createdAt().isAfter(Instant.now().minusSeconds(1))) {
                    return Uni.createFrom().voidItem(); // the batcher is still broadcasting it
                }
                if (last.plus(config.rebroadcastAfter()).isBefore(Instant.now())) {
                    LOG.infof("rebroadcasting anchor tx %s (nonce %d)", tx.hash(), tx.nonce());
                    return broadcast(tx.nonce(), tx.hash(), tx.raw());
                }
                return Uni.createFrom().voidItem();
            });
        });
    }

    private Uni<Void> dropped(OpenTx tx) {
        LOG.errorf("anchor tx %s (nonce %d) was replaced by another transaction of the signer; re-queueing its transitions",
                tx.hash(), tx.nonce());
        return repo.pool().withTransaction(c -> repo.failTx(c, tx.nonce(), "nonce used by another transaction"));
    }

    private Uni<Void> record(OpenTx tx, TransactionReceipt receipt) {
        if (!active.get()) {
            return Uni.createFrom().voidItem();
        }
        long block = receipt.getBlockNumber().longValueExact();
        return repo.pool().withTransaction(c -> repo.lockSentItems(c, tx.nonce()).flatMap(items -> {
            if (items.isEmpty()) {
                return Uni.createFrom().item(List.<SentItem>of());
            }
            if (!receipt.isStatusOK()) {
                LOG.errorf("anchor tx %s reverted in block %d; re-queueing %d transitions", tx.hash(), block, items.size());
                return repo.failTx(c, tx.nonce(), "reverted in block " + block).replaceWith(List.<SentItem>of());
            }
            List<AnchorContract.Anchored> logs = contract.anchoredLogs(receipt);
            List<ReceiptRow> rows = new ArrayList<>(items.size());
            List<AnchorReceiptEvent> events = new ArrayList<>(items.size());
            for (SentItem item : items) {
                AnchorContract.Anchored log = item.batchIndex() < logs.size() ? logs.get(item.batchIndex()) : null;
                if (log == null || !log.mandateHash().equalsIgnoreCase(item.mandateHash()) || !log.state().equals(item.state())) {
                    LOG.errorf("anchor tx %s does not carry transition %s at position %d; re-queueing", tx.hash(),
                            item.transitionId(), item.batchIndex());
                    return repo.failTx(c, tx.nonce(), "receipt logs do not match the batch").replaceWith(List.<SentItem>of());
                }
                rows.add(new ReceiptRow(item.transitionId(), item.mandateId(), item.mandateHash(), item.state(),
                        config.chainId(), tx.hash(), block, log.logIndex()));
                events.add(new AnchorReceiptEvent(receiptEventId(item.transitionId()), AnchorReceiptEvent.TYPE,
                        item.mandateId(), item.partnerId(), Instant.now(), AnchorReceiptEvent.SCHEMA_VERSION,
                        item.transitionId(), item.mandateHash(), item.state(), config.chainId(), tx.hash(), block, log.logIndex(),
                        config.contractAddress().toLowerCase(java.util.Locale.ROOT)));
            }
            return repo.insertReceipts(c, rows)
                    // pipelined on the transaction's connection rather than one round trip after another
                    // each receipt continues the trace of the mandate event it answers
                    .chain(() -> Uni.join().all(java.util.stream.IntStream.range(0, events.size())
                            .mapToObj(i -> outbox.append(c, events.get(i), items.get(i).traceParent())).toList()).andFailFast())
                    .chain(() -> repo.markAnchored(c, tx.nonce(), block))
                    .replaceWith(items);
        })).invoke(items -> {
            if (items == null || items.isEmpty()) {
                return;
            }
            // after the commit: wake the relay to publish now rather than at its next poll
            relay.wake();
            Instant now = Instant.now();
            for (SentItem i : items) {
                commitToReceipt.record(Duration.between(i.eventAt(), now));
            }
            anchored.increment(items.size());
            lastProgress = Instant.now();
            LOG.debugf("anchored %d transitions: %s", items.size(), explorerLink(tx.hash()));
        }).replaceWithVoid();
    }

    /** Deterministic per transition, so consumers can dedupe even a receipt recorded twice by mistake. */
    static UUID receiptEventId(String transitionId) {
        return UUID.nameUUIDFromBytes(("anchor-receipt:" + transitionId).getBytes(StandardCharsets.UTF_8));
    }

    private void onFailure(String loop, Throwable e) {
        if (e instanceof FaultInjection.SimulatedCrash) {
            LOG.warnf("%s: %s; pipeline stopped", loop, e.getMessage());
            stop();
        } else {
            LOG.warnf("%s round failed, will retry: %s", loop, e.getMessage());
        }
    }

    /** For the explorer link of a transaction. */
    public String explorerLink(String txHash) {
        return config.explorerUrl().replaceAll("/+$", "") + "/tx/" + txHash;
    }
}
