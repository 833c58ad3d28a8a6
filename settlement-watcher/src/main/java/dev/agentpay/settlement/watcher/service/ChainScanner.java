package dev.agentpay.settlement.watcher.service;

import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.settlement.config.SettlementConfig;
import io.smallrye.mutiny.Uni;

/**
 * What every chain's scanner is to the {@link WatcherSupervisor}: one chain, the RPC client the scanner
 * owns (closed with it), the ledger its steps commit to, the configuration, and a {@link #tick} the chain's
 * loop runs on its lane. {@link EvmScanner} and {@link SolanaScanner} differ only in what a tick does.
 */
public abstract class ChainScanner<C extends AutoCloseable> implements AutoCloseable {

    protected final ChainTable.Entry chain;
    protected final C rpc;
    protected final WatcherLedger ledger;
    protected final SettlementConfig config;

    protected ChainScanner(ChainTable.Entry chain, C rpc, WatcherLedger ledger, SettlementConfig config) {
        this.chain = chain;
        this.rpc = rpc;
        this.ledger = ledger;
        this.config = config;
    }

    /** The fence of the tick in progress: its chain's lease and the token the tick started with. */
    private volatile ChainLeases.Fence fence = new ChainLeases.Fence("", -1);

    /** One tick; emits the number of events published. Ticks of one chain never overlap. */
    public abstract Uni<Integer> tick();

    /** One tick under the chain's fencing token: every step it commits is refused if the token is stale. */
    public Uni<Integer> tick(long token) {
        fence = new ChainLeases.Fence(chain.name(), token);
        return tick();
    }

    /** What this tick's commits are fenced with. */
    protected ChainLeases.Fence fence() {
        return fence;
    }

    public String chain() {
        return chain.name();
    }

    /** Closes the RPC client (after the step in flight has ended: the supervisor waits for the lane). */
    @Override
    public void close() throws Exception {
        rpc.close();
    }
}
