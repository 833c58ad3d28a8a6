package dev.agentpay.settlement.service;

import dev.agentpay.commons.chains.Chain;
import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.settlement.client.EvmClient;
import dev.agentpay.settlement.config.SettlementConfig;
import dev.agentpay.settlement.repository.DepositRepository;
import dev.agentpay.settlement.repository.WatcherRepository;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import org.jboss.logging.Logger;

/**
 * Runs one polling loop per watchable chain on its own thread (RPC calls block; a slow chain never
 * delays another). A loop holds no state of its own: stopping and starting one is a restart.
 */
@ApplicationScoped
public class WatcherSupervisor {

    private static final Logger LOG = Logger.getLogger(WatcherSupervisor.class);

    @Inject
    ChainTable chains;

    @Inject
    WatcherRepository repo;

    @Inject
    DepositRepository deposits;

    @Inject
    SettlementConfig config;

    @Inject
    SolanaScannerFactory solana;

    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(5, r -> {
        Thread t = new Thread(r, "chain-watcher");
        t.setDaemon(true);
        return t;
    });
    private final Map<Chain, ScheduledFuture<?>> loops = new ConcurrentHashMap<>();
    private final Map<Chain, AutoCloseable> clients = new ConcurrentHashMap<>();
    private final Map<Chain, Object> locks = new ConcurrentHashMap<>();

    void onStart(@Observes StartupEvent ev) {
        if (!config.enabled()) {
            return;
        }
        for (ChainTable.Entry e : chains.all()) {
            if (e.watchable()) {
                start(e.chain());
            } else {
                LOG.infof("%s: not watched (needs enabled, payment address and RPC URL)", e.name());
            }
        }
    }

    void onStop(@Observes ShutdownEvent ev) {
        for (Chain c : Chain.values()) {
            stop(c);
        }
        executor.shutdownNow();
    }

    /** Starts (or restarts) a chain's loop from its persisted checkpoint. */
    public synchronized void start(Chain chain) {
        if (loops.containsKey(chain)) {
            return;
        }
        ChainTable.Entry e = chains.get(chain);
        IntSupplier tick;
        if (chain.kind() == Chain.Kind.EVM) {
            EvmClient client = new EvmClient(e.name(), e.rpcUrl().orElseThrow(), config.evm().rpcTimeout());
            clients.put(chain, client);
            tick = new EvmScanner(e, client, repo, deposits, config)::tick;
        } else {
            tick = solana.create(e)::tick;
        }
        long every = e.pollInterval().toMillis();
        Object lock = locks.computeIfAbsent(chain, k -> new Object());
        loops.put(chain, executor.scheduleWithFixedDelay(() -> {
            synchronized (lock) {
            if (Thread.currentThread().isInterrupted() || !loops.containsKey(chain)) {
                return;
            }
            try {
                int n = tick.getAsInt();
                if (n > 0) {
                    LOG.debugf("%s: %d event(s) published", e.name(), n);
                }
            } catch (RuntimeException ex) {
                // The next tick retries from the committed checkpoint; nothing was half-published.
                LOG.warnf("%s: scan failed, retrying in %d ms: %s", e.name(), every, ex.getMessage());
            }
            }
        }, 0, every, TimeUnit.MILLISECONDS));
        LOG.infof("%s: watching %s every %d ms (%d confirmations)", e.name(),
                chain.kind() == Chain.Kind.EVM ? "the invoices' deposit addresses" : e.paymentAddress().orElseThrow(), every, e.confirmations());
    }

    /** Stops a chain's loop after its current step (for maintenance and the downtime test). */
    public synchronized void stop(Chain chain) {
        ScheduledFuture<?> f = loops.remove(chain);
        if (f != null) {
            f.cancel(false);
            synchronized (locks.computeIfAbsent(chain, k -> new Object())) {
                // waits for a step in flight to finish; no new one starts once the loop is removed
            }
        }
        AutoCloseable c = clients.remove(chain);
        if (c != null) {
            try {
                c.close();
            } catch (Exception ignored) {
                // closing an HTTP client cannot lose data
            }
        }
    }

    public boolean running(Chain chain) {
        return loops.containsKey(chain);
    }
}
