package dev.agentpay.settlement.sweep.service;

import dev.agentpay.settlement.sweep.domain.SweepBatch;
import dev.agentpay.commons.chains.Chain;
import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.settlement.client.EvmClient;
import dev.agentpay.settlement.config.SettlementConfig;
import dev.agentpay.settlement.sweep.domain.SweepTotals;
import dev.agentpay.settlement.watcher.service.ChainLeases;
import dev.agentpay.settlement.watcher.service.SerialLanes;
import dev.agentpay.settlement.sweep.client.SweepChainClient;
import dev.agentpay.settlement.sweep.repository.SweepRepository;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;
import org.web3j.protocol.core.methods.response.TransactionReceipt;

/**
 * Sweeps the USDC that invoices' deposit addresses received to the seller wallet, per EVM chain, in
 * batches: one {@code DepositFactory.sweep(usdc, salts)} transaction deploys the missing forwarders and
 * moves every balance to the factory's treasury (the seller wallet), whose gas the sweeper key pays.
 *
 * <p>Exactly-once money movement by construction: a sweep moves whatever an address holds, so sending
 * one twice moves nothing the second time; and each sweep is signed and recorded (SENT, with its raw
 * bytes) before it is broadcast, so a crash or an RPC outage only ever leads to re-broadcasting the same
 * transaction. One open sweep per chain at a time (nonces stay in order). A sweep never touches an
 * invoice: invoice status is decided by the payments alone. Failures are logged, counted
 * ({@code sweep.batches{outcome=failed}}) and listed at {@code GET /admin/sweeps}; the addresses of a
 * failed sweep are swept again by the next one.
 *
 * <p>A round is one non-blocking {@link Uni} pipeline (RPC calls on Vert.x's web client, database steps on
 * the reactive client); the scheduled method returns it, so no thread waits for a chain. Every chain's
 * round runs at once, each on its own lane (rounds of one chain never overlap).
 */
@ApplicationScoped
public class Sweeper {

    private static final Logger LOG = Logger.getLogger(Sweeper.class);
    private static final Duration RECEIPT_WAIT = Duration.ofSeconds(15);
    private static final Duration RECEIPT_POLL = Duration.ofMillis(200);
    /** At most this many recent confirmed sweeps per chain are re-read for reorgs each round. */
    private static final int REVERIFIED = 100;

    /** What one round on a chain did. */
    public record Round(int addresses, BigInteger swept, String txHash, String outcome) {
    }

    @Inject
    ChainTable chains;

    @Inject
    SettlementConfig config;

    @Inject
    SweepRepository ledger;

    @Inject
    Pool pool;

    @Inject
    MeterRegistry metrics;

    @Inject
    Vertx vertx;

    @Inject
    ChainLeases chainLeases;

    private final Map<Chain, SweepChainClient> clients = new ConcurrentHashMap<>();
    private final SerialLanes<Chain> lanes = new SerialLanes<>();

    @Scheduled(every = "${settlement.sweep.interval:PT30S}", delayed = "${settlement.sweep.interval:PT30S}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> scheduled() {
        if (!config.enabled() || !config.sweep().enabled() || config.sweep().privateKey().filter(k -> !k.isBlank()).isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        // every chain's round at once, each on its own lane: one chain's RPC down delays no other chain
        List<Uni<Void>> rounds = new ArrayList<>();
        for (ChainTable.Entry e : chains.all()) {
            if (sweepable(e)) {
                rounds.add(sweep(e.chain()).replaceWithVoid().onFailure().recoverWithUni(ex -> {
                    metrics.counter("sweep.rounds.failed", "chain", e.name()).increment();
                    LOG.errorf("%s: sweep round failed, retried in %s: %s", e.name(), config.sweep().interval(), ex.getMessage());
                    return Uni.createFrom().voidItem();
                }));
            }
        }
        return rounds.isEmpty() ? Uni.createFrom().voidItem() : Uni.join().all(rounds).andFailFast().replaceWithVoid();
    }

    static boolean sweepable(ChainTable.Entry e) {
        return e.chain().kind() == Chain.Kind.EVM && e.watchable() && e.depositFactoryAddress().isPresent();
    }

    /**
     * One round on a chain: settle the open sweep if any, else sweep up to a batch of owed addresses. Rounds
     * of one chain run one after another (a round asked for while one runs starts when it has ended).
     */
    public Uni<Round> sweep(Chain chain) {
        return lanes.run(chain, () -> round(chain));
    }

    private Uni<Round> round(Chain chain) {
        ChainTable.Entry e = chains.get(chain);
        if (!sweepable(e)) {
            return Uni.createFrom().failure(new IllegalStateException(chain.value() + " has no RPC URL or deposit factory"));
        }
        if (chainLeases.beginSweep(e.name()) < 0) {
            // another instance holds this chain (its scans and sweeps): nothing to do here
            return Uni.createFrom().item(new Round(0, BigInteger.ZERO, null, "not_this_instance"));
        }
        SweepChainClient rpc = client(e);
        String factory = e.depositFactoryAddress().orElseThrow();
        return reverify(e, rpc)
                .flatMap(x -> ledger.open(pool, e.name()))
                .flatMap(open -> open.isEmpty() ? sweepOwed(e, rpc, factory) : resolve(e, rpc, factory, open.get(0)));
    }

    /** The owed addresses the factory really derives (a mismatch is recorded as unsweepable), then one sweep of them. */
    private Uni<Round> sweepOwed(ChainTable.Entry e, SweepChainClient rpc, String factory) {
        return ledger.owed(pool, e.name(), config.sweep().batchSize()).flatMap(owed -> {
            List<byte[]> salts = new ArrayList<>();
            List<String> addresses = new ArrayList<>();
            Uni<Void> checked = Uni.createFrom().voidItem();
            for (SweepRepository.Owed o : owed) {
                byte[] salt = dev.agentpay.commons.chains.Create2.invoiceSalt(o.invoiceId());
                checked = checked.flatMap(x -> rpc.depositAddress(factory, salt)).flatMap(onChain -> {
                    if (onChain.equals(o.address())) {
                        salts.add(salt);
                        addresses.add(o.address());
                        return Uni.createFrom().voidItem();
                    }
                    // invoice-service derived the address under another factory: sweeping would move nothing
                    metrics.counter("sweep.address.mismatch", "chain", e.name()).increment();
                    LOG.errorf("%s: deposit address %s of invoice %s is not factory %s's (%s): not swept, check CHAIN_%s_DEPOSIT_FACTORY_ADDRESS",
                            e.name(), o.address(), o.invoiceId(), factory, onChain, e.name().toUpperCase(Locale.ROOT));
                    return chainLeases.sweep(e.name(), tx -> ledger.markUnsweepable(tx, e.name(), o.address(),
                            "not the deposit address of factory " + factory + " for invoice " + o.invoiceId())).replaceWithVoid();
                });
            }
            return checked.flatMap(x -> salts.isEmpty()
                    ? Uni.createFrom().item(new Round(0, BigInteger.ZERO, null, "nothing_owed"))
                    : send(e, rpc, factory, salts, addresses));
        });
    }

    /** Signs a sweep, records it SENT with its raw bytes, then broadcasts it and waits a little for its receipt. */
    private Uni<Round> send(ChainTable.Entry e, SweepChainClient rpc, String factory, List<byte[]> salts, List<String> addresses) {
        UUID id = UUID.randomUUID();
        return rpc.signSweep(factory, e.usdcAddress(), salts).flatMap(signed -> chainLeases.sweep(e.name(), tx -> ledger
                .recordSent(tx, id, e.name(), signed.txHash(), signed.nonce(), signed.raw(), addresses, Instant.now()))
                .invoke(() -> LOG.infof("%s: sweep %s of %d address(es) sent as %s", e.name(), id, addresses.size(), signed.txHash()))
                .flatMap(x -> rpc.broadcast(signed.raw()).onItemOrFailure().transformToUni((ok, ex) -> {
                    Round sent = new Round(addresses.size(), BigInteger.ZERO, signed.txHash(), "sent");
                    if (ex instanceof EvmClient.RpcException) {
                        LOG.warnf("%s: broadcasting sweep %s failed (re-broadcast later): %s", e.name(), id, ex.getMessage());
                        return chainLeases.sweep(e.name(), tx -> ledger.rebroadcast(tx, id, ex.getMessage(), Instant.now())).replaceWith(sent);
                    }
                    if (ex != null) {
                        return Uni.createFrom().failure(ex);
                    }
                    return receiptWithin(rpc, signed.txHash(), RECEIPT_WAIT).flatMap(receipt -> receipt.isPresent()
                            ? finish(e, factory, id, addresses.size(), signed.txHash(), receipt.get())
                            : Uni.createFrom().item(sent));
                })));
    }

    /** The receipt once mined, asked for every 200 ms for at most {@code wait}; empty when still unmined then. */
    private static Uni<Optional<TransactionReceipt>> receiptWithin(SweepChainClient rpc, String txHash, Duration wait) {
        return rpc.receipt(txHash).repeat().withDelay(RECEIPT_POLL).whilst(Optional::isEmpty)
                .select().first(wait)
                .collect().last()
                .map(last -> last == null ? Optional.<TransactionReceipt>empty() : last);
    }

    /**
     * Re-reads the receipts of the chain's confirmed sweeps that a reorg could still take out (mined within
     * {@code settlement.evm.remembered-blocks} of the head, as far as the scanner follows reorgs). A sweep no
     * longer mined where it was is reopened (SENT, its amounts out of the ledger) and broadcast again; its
     * money is back at the deposit addresses, and the next round settles it as any open sweep.
     */
    private Uni<Void> reverify(ChainTable.Entry e, SweepChainClient rpc) {
        return rpc.blockNumber()
                .flatMap(head -> ledger.minedSince(pool, e.name(), Math.max(0, head - config.evm().rememberedBlocks()), REVERIFIED))
                .flatMap(mined -> {
                    Uni<Void> all = Uni.createFrom().voidItem();
                    for (SweepRepository.Mined m : mined) {
                        all = all.flatMap(x -> reverify(e, rpc, m));
                    }
                    return all;
                });
    }

    private Uni<Void> reverify(ChainTable.Entry e, SweepChainClient rpc, SweepRepository.Mined m) {
        return rpc.receipt(m.txHash()).flatMap(receipt -> {
            if (receipt.isPresent() && m.blockHash().equalsIgnoreCase(receipt.get().getBlockHash())) {
                return Uni.createFrom().voidItem();
            }
            String reason = "reorg: no longer mined in block " + m.blockNumber() + " (" + m.blockHash() + ")"
                    + receipt.map(r -> ", now in block " + r.getBlockNumber()).orElse("");
            return chainLeases.sweep(e.name(), tx -> ledger.reopen(tx, m.id(), reason, Instant.now())).flatMap(reopened -> {
                if (!reopened) {
                    return Uni.createFrom().voidItem();
                }
                metrics.counter("sweep.batches", "chain", e.name(), "outcome", "reorged").increment();
                LOG.warnf("%s: sweep %s (%s) %s; reopened and broadcast again", e.name(), m.id(), m.txHash(), reason);
                if (receipt.isPresent()) {
                    return Uni.createFrom().voidItem();
                }
                return rpc.broadcast(m.rawTx()).onFailure(EvmClient.RpcException.class).recoverWithUni(ex -> {
                    LOG.warnf("%s: re-broadcasting reorged sweep %s failed (retried later): %s", e.name(), m.id(), ex.getMessage());
                    return Uni.createFrom().voidItem();
                });
            });
        });
    }

    /** An open sweep: confirmed or failed once mined; re-broadcast (the same bytes) when it stays unmined. */
    private Uni<Round> resolve(ChainTable.Entry e, SweepChainClient rpc, String factory, SweepBatch b) {
        return rpc.receipt(b.txHash()).flatMap(receipt -> {
            if (receipt.isPresent()) {
                return finish(e, factory, b.id(), b.addresses().size(), b.txHash(), receipt.get());
            }
            Round sent = new Round(b.addresses().size(), BigInteger.ZERO, b.txHash(), "sent");
            if (Duration.between(b.broadcastAt(), Instant.now()).compareTo(config.sweep().rebroadcastAfter()) < 0) {
                return Uni.createFrom().item(sent);
            }
            if (b.attempts() >= config.sweep().maxAttempts()) {
                // Not mined after every attempt: another transaction may have taken the nonce. The money is
                // still at the addresses (a sweep that never ran moved nothing); the next sweep takes them.
                return chainLeases.sweep(e.name(), tx -> ledger.fail(tx, b.id(), "not mined after " + b.attempts() + " broadcasts", Instant.now())).map(x -> {
                    metrics.counter("sweep.batches", "chain", e.name(), "outcome", "failed").increment();
                    LOG.errorf("%s: sweep %s (%s) FAILED: not mined after %d broadcasts", e.name(), b.id(), b.txHash(), b.attempts());
                    return new Round(b.addresses().size(), BigInteger.ZERO, b.txHash(), "failed");
                });
            }
            return rpc.broadcast(b.rawTx())
                    .map(x -> (String) null)
                    .onFailure(EvmClient.RpcException.class).recoverWithItem(Throwable::getMessage)
                    .flatMap(error -> chainLeases.sweep(e.name(), tx -> ledger.rebroadcast(tx, b.id(), error, Instant.now())).map(x -> {
                        metrics.counter("sweep.batches", "chain", e.name(), "outcome", "rebroadcast").increment();
                        LOG.warnf("%s: sweep %s (%s) re-broadcast (attempt %d)%s", e.name(), b.id(), b.txHash(), b.attempts() + 1,
                                error == null ? "" : ": " + error);
                        return sent;
                    }));
        });
    }

    private Uni<Round> finish(ChainTable.Entry e, String factory, UUID id, int addresses, String txHash, TransactionReceipt receipt) {
        if (!receipt.isStatusOK()) {
            return chainLeases.sweep(e.name(), tx -> ledger.fail(tx, id, "reverted in block " + receipt.getBlockNumber(), Instant.now())).map(x -> {
                metrics.counter("sweep.batches", "chain", e.name(), "outcome", "failed").increment();
                LOG.errorf("%s: sweep %s (%s) FAILED: reverted; its addresses are swept again next round", e.name(), id, txHash);
                return new Round(addresses, BigInteger.ZERO, txHash, "failed");
            });
        }
        Map<String, BigInteger> swept = SweepChainClient.swept(receipt, factory);
        return chainLeases.sweep(e.name(), tx -> ledger.confirm(tx, id, e.name(), swept, receipt.getBlockNumber().longValueExact(),
                receipt.getBlockHash(), Instant.now())).map(x -> {
                    BigInteger total = swept.values().stream().reduce(BigInteger.ZERO, BigInteger::add);
                    metrics.counter("sweep.batches", "chain", e.name(), "outcome", "confirmed").increment();
                    metrics.counter("sweep.swept.atomic", "chain", e.name()).increment(total.doubleValue());
                    LOG.infof("%s: sweep %s (%s) confirmed: %s atomic USDC from %d address(es) to the seller wallet",
                            e.name(), id, txHash, total, swept.size());
                    return new Round(addresses, total, txHash, "confirmed");
                });
    }

    private SweepChainClient client(ChainTable.Entry e) {
        return clients.computeIfAbsent(e.chain(), c -> new SweepChainClient(vertx, e.name(), e.rpcUrl().orElseThrow(),
                Long.parseLong(e.networkId()), config.sweep().privateKey().orElseThrow(() -> new IllegalStateException("no SWEEPER_PRIVATE_KEY")),
                config.evm().rpcTimeout()));
    }

    void onStop(@Observes ShutdownEvent ev) {
        clients.values().forEach(SweepChainClient::close);
    }

    /** Per-chain totals of the sweep ledger (the admin view). */
    public Uni<List<SweepTotals>> totals() {
        return ledger.totals(pool);
    }

    /** The newest sweep batches (the admin view). */
    public Uni<List<SweepBatch>> recent(int limit) {
        return ledger.recent(pool, limit);
    }
}
