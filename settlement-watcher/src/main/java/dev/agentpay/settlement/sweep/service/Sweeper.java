package dev.agentpay.settlement.sweep.service;

import dev.agentpay.commons.chains.Chain;
import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.settlement.config.SettlementConfig;
import dev.agentpay.settlement.sweep.client.SweepChainClient;
import dev.agentpay.settlement.sweep.repository.SweepRepository;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
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
 */
@ApplicationScoped
public class Sweeper {

    private static final Logger LOG = Logger.getLogger(Sweeper.class);
    private static final Duration DB_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration RECEIPT_WAIT = Duration.ofSeconds(15);
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

    private final Map<Chain, SweepChainClient> clients = new ConcurrentHashMap<>();

    @Scheduled(every = "${settlement.sweep.interval:PT30S}", delayed = "${settlement.sweep.interval:PT30S}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void scheduled() {
        if (!config.enabled() || !config.sweep().enabled() || config.sweep().privateKey().filter(k -> !k.isBlank()).isEmpty()) {
            return;
        }
        for (ChainTable.Entry e : chains.all()) {
            if (sweepable(e)) {
                try {
                    sweep(e.chain());
                } catch (RuntimeException ex) {
                    metrics.counter("sweep.rounds.failed", "chain", e.name()).increment();
                    LOG.errorf("%s: sweep round failed, retried in %s: %s", e.name(), config.sweep().interval(), ex.getMessage());
                }
            }
        }
    }

    static boolean sweepable(ChainTable.Entry e) {
        return e.chain().kind() == Chain.Kind.EVM && e.watchable() && e.depositFactoryAddress().isPresent();
    }

    /** One round on a chain: settle the open sweep if any, else sweep up to a batch of owed addresses. */
    public synchronized Round sweep(Chain chain) {
        ChainTable.Entry e = chains.get(chain);
        if (!sweepable(e)) {
            throw new IllegalStateException(chain.value() + " has no RPC URL or deposit factory");
        }
        SweepChainClient rpc = client(e);
        String factory = e.depositFactoryAddress().orElseThrow();
        reverify(e, rpc);
        List<SweepRepository.Batch> open = ledger.open(pool, e.name()).await().atMost(DB_TIMEOUT);
        if (!open.isEmpty()) {
            return resolve(e, rpc, factory, open.get(0));
        }
        List<SweepRepository.Owed> owed = ledger.owed(pool, e.name(), config.sweep().batchSize()).await().atMost(DB_TIMEOUT);
        List<byte[]> salts = new ArrayList<>();
        List<String> addresses = new ArrayList<>();
        for (SweepRepository.Owed o : owed) {
            byte[] salt = SweepChainClient.salt(o.invoiceId());
            String onChain = rpc.depositAddress(factory, salt);
            if (!onChain.equals(o.address())) {
                // invoice-service derived the address under another factory: sweeping would move nothing
                metrics.counter("sweep.address.mismatch", "chain", e.name()).increment();
                LOG.errorf("%s: deposit address %s of invoice %s is not factory %s's (%s): not swept, check CHAIN_%s_DEPOSIT_FACTORY_ADDRESS",
                        e.name(), o.address(), o.invoiceId(), factory, onChain, e.name().toUpperCase(Locale.ROOT));
                ledger.markUnsweepable(pool, e.name(), o.address(), "not the deposit address of factory " + factory + " for invoice " + o.invoiceId())
                        .await().atMost(DB_TIMEOUT);
                continue;
            }
            salts.add(salt);
            addresses.add(o.address());
        }
        if (salts.isEmpty()) {
            return new Round(0, BigInteger.ZERO, null, "nothing_owed");
        }
        SweepChainClient.Signed signed = rpc.signSweep(factory, e.usdcAddress(), salts);
        UUID id = UUID.randomUUID();
        ledger.recordSent(pool, id, e.name(), signed.txHash(), signed.nonce(), signed.raw(), addresses, Instant.now()).await().atMost(DB_TIMEOUT);
        LOG.infof("%s: sweep %s of %d address(es) sent as %s", e.name(), id, addresses.size(), signed.txHash());
        try {
            rpc.broadcast(signed.raw());
        } catch (dev.agentpay.settlement.client.EvmClient.RpcException ex) {
            LOG.warnf("%s: broadcasting sweep %s failed (re-broadcast later): %s", e.name(), id, ex.getMessage());
            ledger.rebroadcast(pool, id, ex.getMessage(), Instant.now()).await().atMost(DB_TIMEOUT);
            return new Round(addresses.size(), BigInteger.ZERO, signed.txHash(), "sent");
        }
        long deadline = System.nanoTime() + RECEIPT_WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            var receipt = rpc.receipt(signed.txHash());
            if (receipt.isPresent()) {
                return finish(e, factory, id, addresses.size(), signed.txHash(), receipt.get());
            }
            sleep(200);
        }
        return new Round(addresses.size(), BigInteger.ZERO, signed.txHash(), "sent");
    }

    /**
     * Re-reads the receipts of the chain's confirmed sweeps that a reorg could still take out (mined within
     * {@code settlement.evm.remembered-blocks} of the head, as far as the scanner follows reorgs). A sweep no
     * longer mined where it was is reopened (SENT, its amounts out of the ledger) and broadcast again; its
     * money is back at the deposit addresses, and the next round settles it as any open sweep.
     */
    private void reverify(ChainTable.Entry e, SweepChainClient rpc) {
        long from = Math.max(0, rpc.blockNumber() - config.evm().rememberedBlocks());
        for (SweepRepository.Mined m : ledger.minedSince(pool, e.name(), from, REVERIFIED).await().atMost(DB_TIMEOUT)) {
            var receipt = rpc.receipt(m.txHash());
            if (receipt.isPresent() && m.blockHash().equalsIgnoreCase(receipt.get().getBlockHash())) {
                continue;
            }
            String reason = "reorg: no longer mined in block " + m.blockNumber() + " (" + m.blockHash() + ")"
                    + receipt.map(r -> ", now in block " + r.getBlockNumber()).orElse("");
            if (!pool.withTransaction(tx -> ledger.reopen(tx, m.id(), reason, Instant.now())).await().atMost(DB_TIMEOUT)) {
                continue;
            }
            metrics.counter("sweep.batches", "chain", e.name(), "outcome", "reorged").increment();
            LOG.warnf("%s: sweep %s (%s) %s; reopened and broadcast again", e.name(), m.id(), m.txHash(), reason);
            if (receipt.isEmpty()) {
                try {
                    rpc.broadcast(m.rawTx());
                } catch (dev.agentpay.settlement.client.EvmClient.RpcException ex) {
                    LOG.warnf("%s: re-broadcasting reorged sweep %s failed (retried later): %s", e.name(), m.id(), ex.getMessage());
                }
            }
        }
    }

    /** An open sweep: confirmed or failed once mined; re-broadcast (the same bytes) when it stays unmined. */
    private Round resolve(ChainTable.Entry e, SweepChainClient rpc, String factory, SweepRepository.Batch b) {
        var receipt = rpc.receipt(b.txHash());
        if (receipt.isPresent()) {
            return finish(e, factory, b.id(), b.addresses().size(), b.txHash(), receipt.get());
        }
        if (Duration.between(b.broadcastAt(), Instant.now()).compareTo(config.sweep().rebroadcastAfter()) < 0) {
            return new Round(b.addresses().size(), BigInteger.ZERO, b.txHash(), "sent");
        }
        if (b.attempts() >= config.sweep().maxAttempts()) {
            // Not mined after every attempt: another transaction may have taken the nonce. The money is
            // still at the addresses (a sweep that never ran moved nothing); the next sweep takes them.
            ledger.fail(pool, b.id(), "not mined after " + b.attempts() + " broadcasts", Instant.now()).await().atMost(DB_TIMEOUT);
            metrics.counter("sweep.batches", "chain", e.name(), "outcome", "failed").increment();
            LOG.errorf("%s: sweep %s (%s) FAILED: not mined after %d broadcasts", e.name(), b.id(), b.txHash(), b.attempts());
            return new Round(b.addresses().size(), BigInteger.ZERO, b.txHash(), "failed");
        }
        String error = null;
        try {
            rpc.broadcast(b.rawTx());
        } catch (dev.agentpay.settlement.client.EvmClient.RpcException ex) {
            error = ex.getMessage();
        }
        ledger.rebroadcast(pool, b.id(), error, Instant.now()).await().atMost(DB_TIMEOUT);
        metrics.counter("sweep.batches", "chain", e.name(), "outcome", "rebroadcast").increment();
        LOG.warnf("%s: sweep %s (%s) re-broadcast (attempt %d)%s", e.name(), b.id(), b.txHash(), b.attempts() + 1,
                error == null ? "" : ": " + error);
        return new Round(b.addresses().size(), BigInteger.ZERO, b.txHash(), "sent");
    }

    private Round finish(ChainTable.Entry e, String factory, UUID id, int addresses, String txHash, TransactionReceipt receipt) {
        if (!receipt.isStatusOK()) {
            ledger.fail(pool, id, "reverted in block " + receipt.getBlockNumber(), Instant.now()).await().atMost(DB_TIMEOUT);
            metrics.counter("sweep.batches", "chain", e.name(), "outcome", "failed").increment();
            LOG.errorf("%s: sweep %s (%s) FAILED: reverted; its addresses are swept again next round", e.name(), id, txHash);
            return new Round(addresses, BigInteger.ZERO, txHash, "failed");
        }
        Map<String, BigInteger> swept = SweepChainClient.swept(receipt, factory);
        pool.withTransaction(tx -> ledger.confirm(tx, id, e.name(), swept, receipt.getBlockNumber().longValueExact(),
                receipt.getBlockHash(), Instant.now())).await().atMost(DB_TIMEOUT);
        BigInteger total = swept.values().stream().reduce(BigInteger.ZERO, BigInteger::add);
        metrics.counter("sweep.batches", "chain", e.name(), "outcome", "confirmed").increment();
        metrics.counter("sweep.swept.atomic", "chain", e.name()).increment(total.doubleValue());
        LOG.infof("%s: sweep %s (%s) confirmed: %s atomic USDC from %d address(es) to the seller wallet", e.name(), id, txHash, total, swept.size());
        return new Round(addresses, total, txHash, "confirmed");
    }

    private SweepChainClient client(ChainTable.Entry e) {
        return clients.computeIfAbsent(e.chain(), c -> new SweepChainClient(e.name(), e.rpcUrl().orElseThrow(),
                Long.parseLong(e.networkId()), config.sweep().privateKey().orElseThrow(() -> new IllegalStateException("no SWEEPER_PRIVATE_KEY")),
                config.evm().rpcTimeout()));
    }

    void onStop(@Observes ShutdownEvent ev) {
        clients.values().forEach(SweepChainClient::close);
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    /** Per-chain totals of the sweep ledger (the admin view). */
    public Uni<List<SweepRepository.Totals>> totals() {
        return ledger.totals(pool);
    }

    /** The newest sweep batches (the admin view). */
    public Uni<List<SweepRepository.Batch>> recent(int limit) {
        return ledger.recent(pool, limit);
    }
}
