package dev.agentpay.commons.lease;

import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jboss.logging.Logger;

/**
 * One lease kept by this instance ({@link Leases#hold}): every {@code platform.lease.renew-every} it renews
 * the lease while held and tries to take it while another instance holds it, and tells its {@link Owner}
 * when it got the lease (with the fencing token every effect of the work must carry) and when it lost it.
 * A renewal that cannot reach the database for the lease's whole ttl counts as lost (another instance
 * may hold it by then). Only one try runs at a time; the owner's {@link Owner#acquired} finishes before
 * the next try.
 */
public final class HeldLease implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(HeldLease.class);

    /** What runs the leased work. */
    public interface Owner {

        /** The lease is now held with {@code token}: start the work (the returned Uni ends when it has started). */
        Uni<Void> acquired(long token);

        /** The lease is no longer held (taken by another instance, or not renewed in time): stop the work. */
        void lost(long token);
    }

    private final Leases leases;
    private final String name;
    private final Owner owner;
    private final AtomicBoolean busy = new AtomicBoolean();
    private volatile long token = -1;
    private volatile Instant renewedAt;
    private volatile long timer = -1;
    private volatile boolean open;

    HeldLease(Leases leases, String name, Owner owner) {
        this.leases = leases;
        this.name = name;
        this.owner = owner;
    }

    public String name() {
        return name;
    }

    /** The fencing token while held, else -1. */
    public long token() {
        return token;
    }

    public boolean held() {
        return token >= 0;
    }

    /** Tries at once, then every {@code renew-every}; the returned Uni ends after the first try (and the owner's start, if it got the lease). */
    public synchronized Uni<Void> start() {
        if (open) {
            return Uni.createFrom().voidItem();
        }
        open = true;
        timer = leases.vertx().setPeriodic(leases.renewEvery().toMillis(), id -> tryOnce().subscribe().with(x -> { }, f -> { }));
        return tryOnce();
    }

    /** One try: renew or take the lease; tells the owner of a change. Never fails. */
    public Uni<Void> tryOnce() {
        if (!open || !busy.compareAndSet(false, true)) {
            return Uni.createFrom().voidItem();
        }
        Instant asked = Instant.now();
        return leases.acquire(name)
                .onFailure().recoverWithItem(f -> {
                    LOG.warnf("lease %s: renewal failed: %s", name, f.getMessage());
                    Instant last = renewedAt;
                    // cannot tell: still ours until its ttl has passed since the last renewal
                    return token >= 0 && last != null && last.plus(leases.ttl()).isAfter(Instant.now()) ? token : -1L;
                })
                .chain(t -> {
                    long had = token;
                    if (t >= 0 && t == had) {
                        renewedAt = asked;
                        return Uni.createFrom().voidItem();
                    }
                    if (had >= 0) {
                        token = -1;
                        LOG.warnf("lease %s: lost (fencing token %d): the work moves to another instance", name, had);
                        owner.lost(had);
                    }
                    if (t < 0 || !open) {
                        return Uni.createFrom().voidItem();
                    }
                    renewedAt = asked;
                    token = t;
                    LOG.infof("lease %s: acquired by %s (fencing token %d)", name, leases.holder(), t);
                    return owner.acquired(t).onFailure().recoverWithUni(f -> {
                        LOG.warnf("lease %s: starting the work failed, letting the lease go: %s", name, f.getMessage());
                        token = -1;
                        owner.lost(t);
                        return leases.release(name, t).onFailure().recoverWithNull();
                    });
                })
                .onTermination().invoke(() -> busy.set(false));
    }

    /** Stops renewing without letting go (as a crash does: the lease expires after its ttl). */
    public synchronized void stop() {
        open = false;
        if (timer >= 0) {
            leases.vertx().cancelTimer(timer);
            timer = -1;
        }
        long had = token;
        token = -1;
        if (had >= 0) {
            owner.lost(had);
        }
    }

    /** Stops renewing and lets the lease go at once, so another instance takes the work at its next try. */
    public Uni<Void> release() {
        long had = token;
        stop();
        return had < 0 ? Uni.createFrom().voidItem() : leases.release(name, had).onFailure().recoverWithNull();
    }

    @Override
    public void close() {
        release().subscribe().with(x -> { }, f -> { });
    }
}
