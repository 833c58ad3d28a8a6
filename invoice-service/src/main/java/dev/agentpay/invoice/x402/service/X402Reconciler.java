package dev.agentpay.invoice.x402.service;

import dev.agentpay.commons.chains.Chain;
import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.commons.loop.WakeLoop;
import dev.agentpay.invoice.x402.client.ChainRpcClient;
import dev.agentpay.invoice.x402.client.SolanaRpcClient;
import dev.agentpay.invoice.x402.config.X402Config;
import dev.agentpay.invoice.x402.domain.PaymentState;
import dev.agentpay.invoice.x402.domain.X402Payment;
import dev.agentpay.invoice.x402.repository.PaymentRepository;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import org.jboss.logging.Logger;

/**
 * Completes payments a crash or an outage left open, at start-up and then periodically:
 * <ul>
 * <li>SETTLED without result: writes the invoice (or the settle check) with the COMPLETED state.</li>
 * <li>SETTLING whose settle outcome was lost: once the authorization can no longer execute
 * ({@code validBefore} plus the settle time limit has passed), asks the chain whether the EIP-3009
 * authorization was used: used, it becomes SETTLED and is completed; unused, FAILED (nothing moved).</li>
 * <li>SETTLING on the Solana rail whose outcome was lost: once its blockhash can no longer be valid
 * (claimed more than the settle time limit plus {@link #SOLANA_TX_LIFETIME} ago), looks for the finalized
 * transaction carrying the payer's signature among the seller's USDC token account's transactions: landed
 * and succeeded, SETTLED (its signature is the txHash) and completed; failed or never landed, FAILED.</li>
 * </ul>
 */
@ApplicationScoped
public class X402Reconciler {

    private static final Logger LOG = Logger.getLogger(X402Reconciler.class);
    private static final int BATCH = 100;
    /** Longer than a Solana blockhash lives (150 blocks, about 60-90 s): after it, the transaction can never land. */
    static final Duration SOLANA_TX_LIFETIME = Duration.ofMinutes(2);

    @Inject
    X402Config config;

    @Inject
    PaymentRepository payments;

    @Inject
    X402Completion completion;

    @Inject
    ChainRpcClient rpc;

    @Inject
    SolanaRpcClient solanaRpc;

    @Inject
    ChainTable chains;

    @Inject
    Pool pool;

    private final WakeLoop loop = new WakeLoop("x402 reconciliation", null, this::round)
            .onFailure(t -> LOG.warn("x402 reconciliation failed", t));

    void onStart(@Observes StartupEvent e) {
        loop.start();
    }

    void onStop(@Observes ShutdownEvent e) {
        loop.stop();
    }

    @Scheduled(every = "${x402.reconciler.interval:PT15S}", delay = 5, concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void tick() {
        loop.wake();
    }

    /** Runs a pass (after the one in progress, if any) and completes when it has ended. */
    public Uni<Void> run() {
        return loop.wakeAndAwait();
    }

    private Uni<Boolean> round() {
        Instant now = Instant.now();
        return settled(now).flatMap(a -> settling(now).map(b -> a + b))
                .invoke(n -> LOG.debugf("x402 reconciliation moved %d payments on", n))
                .replaceWith(false);
    }

    private Uni<Integer> settled(Instant now) {
        return payments.stale(pool, PaymentState.SETTLED, now.minus(config.reconciler().grace()), BATCH)
                .flatMap(list -> Multi.createFrom().iterable(list)
                        .onItem().transformToUniAndConcatenate(p -> completion.complete(p.id())
                                .invoke(id -> LOG.infof("x402 payment %s completed by the reconciler (invoice %s)", p.id(), id))
                                .map(id -> 1)
                                .onFailure().invoke(t -> LOG.warnf("x402 payment %s not completed yet: %s", p.id(), t.getMessage()))
                                .onFailure().recoverWithItem(0))
                        .collect().asList()
                        .map(l -> l.stream().mapToInt(Integer::intValue).sum()));
    }

    private Uni<Integer> settling(Instant now) {
        Duration margin = config.facilitator().settleTimeout().plusSeconds(30);
        return payments.stale(pool, PaymentState.SETTLING, now.minus(margin), BATCH)
                .flatMap(list -> Multi.createFrom().iterable(list)
                        .filter(p -> p.validBefore() != null ? p.validBefore().plus(margin).isBefore(now)
                                : isSolana(p) && p.createdAt().plus(margin).plus(SOLANA_TX_LIFETIME).isBefore(now))
                        .onItem().transformToUniAndConcatenate(p -> isSolana(p) ? resolveSolana(p) : resolve(p))
                        .collect().asList()
                        .map(l -> l.stream().mapToInt(Integer::intValue).sum()));
    }

    private static boolean isSolana(X402Payment p) {
        return p.key().startsWith("svm:");
    }

    private Uni<Integer> resolveSolana(X402Payment p) {
        ChainTable.Entry sol = chains.get(Chain.SOLANA);
        if (sol.rpcUrl().isEmpty()) {
            LOG.warnf("x402 payment %s: Solana settle outcome unknown and no Solana RPC to ask; left for the operator", p.id());
            return Uni.createFrom().item(0);
        }
        String payerSignature = p.key().substring("svm:".length());
        return solanaRpc.find(sol.rpcUrl().get(), p.payTo(), p.asset(), payerSignature, p.createdAt().minus(SOLANA_TX_LIFETIME))
                .flatMap(found -> found.isPresent() && found.get().succeeded()
                        ? pool.withTransaction(c -> payments.markSettled(c, p.id(), found.get().signature(), null, Instant.now()))
                                .flatMap(ok -> completion.complete(p.id()))
                                .invoke(id -> LOG.infof("x402 payment %s: found settled on Solana (%s); invoice %s", p.id(),
                                        found.get().signature(), id))
                                .replaceWith(1)
                        : pool.withTransaction(c -> payments.markFailed(c, p.id(), "expired_unsettled", found.isPresent()
                                ? "the transaction failed on chain; nothing moved"
                                : "the transaction's blockhash expired without it landing", Instant.now()))
                                .replaceWith(1))
                .onFailure().invoke(t -> LOG.warnf("x402 payment %s: Solana check failed: %s", p.id(), t.getMessage()))
                .onFailure().recoverWithItem(0);
    }

    private Uni<Integer> resolve(X402Payment p) {
        ChainTable.Entry evm = Chain.of(config.evm().chain()).map(chains::get).orElse(null);
        if (p.nonce() == null || p.payer() == null || evm == null || evm.rpcUrl().isEmpty()) {
            LOG.warnf("x402 payment %s: settle outcome unknown and no chain RPC to ask; left for the operator", p.id());
            return Uni.createFrom().item(0);
        }
        return rpc.authorizationUsed(evm.rpcUrl().get(), p.asset(), p.payer(), p.nonce())
                .flatMap(used -> used
                        ? pool.withTransaction(c -> payments.markSettled(c, p.id(), null, null, Instant.now()))
                                .flatMap(ok -> completion.complete(p.id()))
                                .invoke(id -> LOG.infof("x402 payment %s: found settled on chain; invoice %s", p.id(), id))
                                .replaceWith(1)
                        : pool.withTransaction(c -> payments.markFailed(c, p.id(), "expired_unsettled",
                                "the authorization expired without being used on chain", Instant.now()))
                                .replaceWith(1))
                .onFailure().invoke(t -> LOG.warnf("x402 payment %s: chain check failed: %s", p.id(), t.getMessage()))
                .onFailure().recoverWithItem(0);
    }
}
