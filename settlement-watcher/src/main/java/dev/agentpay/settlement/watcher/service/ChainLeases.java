package dev.agentpay.settlement.watcher.service;

import dev.agentpay.commons.lease.HeldLease;
import dev.agentpay.commons.lease.LeaseLostException;
import dev.agentpay.commons.lease.Leases;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * One lease per watched chain (service-commons {@link Leases}, lease {@code settlement-watcher.chain.<name>}):
 * the instance holding a chain's lease scans it and sweeps it; the others keep their loops running idle and
 * take the chain over when the holder stops renewing. A scan tick and a sweep round each take the fencing
 * token once at their start ({@link #fence} for a scan step, {@link #sweep} for a sweep's records), and every
 * transaction that publishes transfers, moves a checkpoint or records a sweep begins with the fencing check:
 * a frozen instance that wakes after its chain moved publishes, checkpoints and records nothing (README,
 * "Several instances"). Consuming {@code invoice-events} (deposit addresses, insert-if-absent) runs on every
 * instance.
 */
@ApplicationScoped
public class ChainLeases {

    private static final Logger LOG = Logger.getLogger(ChainLeases.class);

    /** A scan tick's fence: the chain's lease and the token the tick started with. */
    public record Fence(String chain, long token) {
    }

    @Inject
    Leases leases;

    @Inject
    Pool pool;

    private final Map<String, HeldLease> held = new ConcurrentHashMap<>();
    /** The token each chain's sweep round started with (rounds of a chain run one at a time: Sweeper's lanes). */
    private final Map<String, Long> sweepTokens = new ConcurrentHashMap<>();

    public static String leaseName(String chain) {
        return "settlement-watcher.chain." + chain;
    }

    /** Starts keeping the chain's lease (idempotent). */
    public void hold(String chain) {
        held.computeIfAbsent(chain, c -> {
            HeldLease h = leases.hold(leaseName(c), new HeldLease.Owner() {
                @Override
                public Uni<Void> acquired(long token) {
                    LOG.infof("%s: this instance (%s) watches and sweeps the chain (fencing token %d)", c, leases.holder(), token);
                    return Uni.createFrom().voidItem();
                }

                @Override
                public void lost(long token) {
                    LOG.infof("%s: the chain moved to another instance", c);
                }
            });
            h.start().subscribe().with(x -> { }, f -> { });
            return h;
        });
    }

    /** The chain's fencing token while this instance holds its lease, else -1. */
    public long token(String chain) {
        HeldLease h = held.get(chain);
        return h == null ? -1 : h.token();
    }

    /** First statement of a scan step's transaction. */
    public Uni<Void> fence(SqlConnection tx, Fence f) {
        return leases.fence(tx, leaseName(f.chain()), f.token());
    }

    /** A sweep round of {@code chain} begins: emits its token (-1: not this instance's chain). */
    public long beginSweep(String chain) {
        long t = token(chain);
        sweepTokens.put(chain, t);
        return t;
    }

    /** One of a sweep round's records, in a transaction fenced with the token the round began with. */
    public <T> Uni<T> sweep(String chain, Function<SqlConnection, Uni<T>> work) {
        long t = sweepTokens.getOrDefault(chain, -1L);
        if (t < 0) {
            return Uni.createFrom().failure(new LeaseLostException(leaseName(chain), t));
        }
        return leases.fenced(leaseName(chain), t, work);
    }

    /**
     * A transaction of other leased work on the chain (the escrow operator's command records), fenced with the token
     * {@code token} that work started with (a failure with {@link LeaseLostException} when it is stale).
     */
    public <T> Uni<T> fenced(String chain, long token, Function<SqlConnection, Uni<T>> work) {
        if (token < 0) {
            return Uni.createFrom().failure(new LeaseLostException(leaseName(chain), token));
        }
        return leases.fenced(leaseName(chain), token, work);
    }

    /**
     * A clean shutdown lets every chain go at once: the other instances take them at their next try. It runs first
     * on SIGTERM (the pre-shutdown event), while the database pool is certainly open: by the {@code ShutdownEvent} the
     * pool may already be closing ("Pool closed" in the rolling restart's logs), the release then failed and the
     * chain waited for the lease's ttl.
     */
    void onStop(@Observes ShutdownDelayInitiatedEvent ev) {
        held.values().forEach(h -> h.release().await().indefinitely());
        held.clear();
    }
}
