package dev.agentpay.anchor.anchoring.service;

import dev.agentpay.commons.lease.HeldLease;
import dev.agentpay.commons.lease.Leases;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The signer's lease (service-commons {@link Leases}, lease {@value #NAME}): one instance at a time runs
 * the batcher, the confirmer and the nonce-gap healer; every instance consumes {@code mandate-events}
 * (storing intents is idempotent). Each round takes the fencing {@link #token} once at its start and
 * every transaction carrying its effect begins with {@link #fence}: a frozen instance that wakes after
 * another one took the signer over signs, records and re-queues nothing (README, "Several instances").
 */
@ApplicationScoped
public class SignerLease {

    public static final String NAME = "anchor-service.signer";

    @Inject
    Leases leases;

    private volatile HeldLease held;

    HeldLease hold(HeldLease.Owner owner) {
        if (held == null) {
            held = leases.hold(NAME, owner);
        }
        return held;
    }

    /** Stops renewing without letting go (as a crash: the lease expires after its ttl). */
    void stop() {
        HeldLease h = held;
        if (h != null) {
            h.stop();
        }
    }

    /** Stops renewing and lets the lease go at once (a clean shutdown). */
    Uni<Void> release() {
        HeldLease h = held;
        return h == null ? Uni.createFrom().voidItem() : h.release();
    }

    /** The fencing token while this instance holds the signer, else -1. */
    public long token() {
        HeldLease h = held;
        return h == null ? -1 : h.token();
    }

    /** First statement of an effect's transaction: fails with LeaseLostException unless {@code token} is still the lease's. */
    public Uni<Void> fence(SqlClient tx, long token) {
        return leases.fence(tx, NAME, token);
    }

    public String holder() {
        return leases.holder();
    }
}
