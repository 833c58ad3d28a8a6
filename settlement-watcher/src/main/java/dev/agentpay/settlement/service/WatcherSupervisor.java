package dev.agentpay.settlement.service;

import dev.agentpay.commons.chains.Chain;
import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.settlement.client.EvmClient;
import dev.agentpay.settlement.config.SettlementConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;
import org.jboss.logging.Logger;

/**
 * Runs one polling job per watchable chain on Quarkus's scheduler (programmatic jobs, one per chain, a
 * run skipped while the previous one is still going). The scanners are blocking code (web3j and the JDK
 * HTTP client): scheduler jobs run on worker threads, never on the event loop, so a slow chain never
 * delays another nor the service's HTTP and Kafka work. A loop holds no state of its own: stopping and
 * starting one is a restart.
 */
@ApplicationScoped
public class WatcherSupervisor {

    private static final Logger LOG = Logger.getLogger(WatcherSupervisor.class);

    @Inject
    ChainTable chains;

    @Inject
    WatcherLedger ledger;

    @Inject
    Scheduler scheduler;

    @Inject
    SettlementConfig config;

    @Inject
    SolanaScannerFactory solana;

    private final Map<Chain, String> loops = new ConcurrentHashMap<>();
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
            tick = new EvmScanner(e, client, ledger, config)::tick;
        } else {
            tick = solana.create(e)::tick;
        }
        long every = e.pollInterval().toMillis();
        Object lock = locks.computeIfAbsent(chain, k -> new Object());
        String job = "chain-watcher-" + e.name();
        loops.put(chain, job);
        scheduler.newJob(job)
                .setInterval(Duration.ofMillis(every).toString())
                .setConcurrentExecution(Scheduled.ConcurrentExecution.SKIP)
                .setTask(execution -> {
            synchronized (lock) {
            if (!job.equals(loops.get(chain))) {
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
        }).schedule();
        LOG.infof("%s: watching %s every %d ms (%d confirmations)", e.name(),
                chain.kind() == Chain.Kind.EVM ? "the invoices' deposit addresses" : e.paymentAddress().orElseThrow(), every, e.confirmations());
    }

    /** Stops a chain's loop after its current step (for maintenance and the downtime test). */
    public synchronized void stop(Chain chain) {
        String job = loops.remove(chain);
        if (job != null) {
            scheduler.unscheduleJob(job);
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
