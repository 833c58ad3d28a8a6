package dev.agentpay.commons.lease;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Leases with fencing tokens ({@link Leases}); root README, "Several instances of every service". */
@ConfigMapping(prefix = "platform.lease")
public interface LeaseConfig {

    /**
     * How long a lease lasts without renewal: a holder that stops renewing (frozen, killed, cut off from
     * the database) loses its work to another instance this long after its last renewal at the latest.
     * Safety does not depend on it (the fencing token does), only how fast work moves.
     */
    @WithDefault("5s")
    Duration ttl();

    /** How often the holder renews and the other instances try to take an expired lease. */
    @WithDefault("1s")
    Duration renewEvery();

    /**
     * PostgreSQL's {@code idle_in_transaction_session_timeout} for fenced transactions: a holder frozen
     * inside one (its row lock on the lease held) has its session ended by the server after this long,
     * so the lock cannot keep the lease from moving.
     */
    @WithDefault("5s")
    Duration idleTransactionTimeout();
}
