package dev.agentpay.settlement.watcher.service;

import dev.agentpay.commons.chains.Chain;
import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.commons.loop.WakeLoop;
import dev.agentpay.settlement.client.EvmClient;
import dev.agentpay.settlement.client.SolanaClient;
import dev.agentpay.settlement.config.SettlementConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;

/**
 * Runs one polling loop per watchable chain: the platform's {@link WakeLoop} woken every
 * {@code poll-interval} by a Vert.x timer (one tick at a time; a wake during a tick runs one more right
 * after it). Not Quarkus's scheduler: it runs an interval under one second at most once a second (its
 * own warning), and the local stack polls every 200 ms. A tick is a non-blocking {@link Uni} pipeline
 * (RPC calls on Vert.x's web client, database steps on the reactive client): no thread waits for a chain,
 * so a slow or unreachable chain never delays another nor the service's HTTP and Kafka work. A chain's
 * ticks run on its own {@link SerialLanes lane}, so a restarted loop never overlaps the step its previous
 * incarnation still has in flight. A loop holds no state of its own: stopping and starting one is a restart.
 */
@ApplicationScoped
public class WatcherSupervisor {

    private static final Logger LOG = Logger.getLogger(WatcherSupervisor.class);

    @Inject
    ChainTable chains;

    @Inject
    WatcherLedger ledger;

    @Inject
    SettlementConfig config;

    @Inject
    Vertx vertx;

    @Inject
    ChainLeases leases;

    private final Map<Chain, WakeLoop> loops = new ConcurrentHashMap<>();
    private final Map<Chain, ChainScanner<?>> scanners = new ConcurrentHashMap<>();
    private final SerialLanes<Chain> lanes = new SerialLanes<>();

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
            // the clients close once a step in flight has ended; nothing waits for it here
            stop(c).subscribe().with(x -> { }, f -> LOG.debugf("%s: stop: %s", c.value(), f.getMessage()));
        }
    }

    /** Starts (or restarts) a chain's loop from its persisted checkpoint. */
    public synchronized void start(Chain chain) {
        if (loops.containsKey(chain)) {
            return;
        }
        ChainTable.Entry e = chains.get(chain);
        ChainScanner<?> scanner = scanner(e);
        scanners.put(chain, scanner);
        long every = e.pollInterval().toMillis();
        leases.hold(e.name());
        // a tick runs only while this instance holds the chain's lease, under the token it starts with
        WakeLoop loop = new WakeLoop("chain-watcher-" + e.name(), vertx, () -> lanes.run(chain, () -> {
                    long token = leases.token(e.name());
                    return token < 0 ? Uni.createFrom().item(0) : scanner.tick(token);
                })
                .invoke(n -> {
                    if (n > 0) {
                        LOG.debugf("%s: %d event(s) published", e.name(), n);
                    }
                })
                .replaceWith(false))
                // the next tick retries from the committed checkpoint; nothing was half-published
                .onFailure(ex -> LOG.warnf("%s: scan failed, retrying in %d ms: %s", e.name(), every, ex.getMessage()));
        loops.put(chain, loop);
        loop.start().every(Duration.ofMillis(every));
        LOG.infof("%s: watching %s every %d ms (%d confirmations)", e.name(),
                chain.kind() == Chain.Kind.EVM ? "the invoices' deposit addresses" : e.paymentAddress().orElseThrow(), every, e.confirmations());
    }

    /** The chain's scanner with its own RPC client (closed with the scanner). */
    private ChainScanner<?> scanner(ChainTable.Entry e) {
        String url = e.rpcUrl().orElseThrow();
        if (e.chain().kind() == Chain.Kind.EVM) {
            return new EvmScanner(e, new EvmClient(vertx, e.name(), url, config.evm().rpcTimeout()), ledger, config);
        }
        return new SolanaScanner(e, new SolanaClient(vertx, url, config.solana().rpcTimeout(), config.solana().commitment().name()),
                ledger, config);
    }

    /**
     * Stops a chain's loop (for maintenance and the downtime test): no new step starts; completes once the
     * step in flight, if any, has ended, and its scanner's RPC client is closed.
     */
    public synchronized Uni<Void> stop(Chain chain) {
        WakeLoop loop = loops.remove(chain);
        if (loop != null) {
            loop.stop();
        }
        ChainScanner<?> scanner = scanners.remove(chain);
        return lanes.idle(chain).invoke(() -> {
            if (scanner != null) {
                try {
                    scanner.close();
                } catch (Exception ignored) {
                    // closing an HTTP client cannot lose data
                }
            }
        });
    }

    public boolean running(Chain chain) {
        return loops.containsKey(chain);
    }
}
