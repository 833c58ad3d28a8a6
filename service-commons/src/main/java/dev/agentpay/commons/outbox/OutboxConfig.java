package dev.agentpay.commons.outbox;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Tuning of the outbox relay. */
@ConfigMapping(prefix = "platform.outbox")
public interface OutboxConfig {

    /** Whether this instance relays its outbox to Kafka (off only in tests of the write path). */
    @WithDefault("true")
    boolean relayEnabled();

    /**
     * Interval of the safety-net poll (e.g. {@code 1s}); commits through {@link Outbox} wake the relay
     * at once, so this only bounds the delay for rows nobody woke it for (e.g. a wake lost to a crash).
     */
    @WithDefault("1s")
    String pollInterval();

    /**
     * How soon a relay that found another replica holding the relay lock tries again; bounds how long a
     * commit on this replica can wait behind another replica's round.
     */
    @WithDefault("20ms")
    Duration lockRetry();

    /**
     * PostgreSQL's {@code idle_in_transaction_session_timeout} for the relay's transaction: a relay frozen
     * (SIGSTOP, a long pause) while it holds the relay lock has its session ended by the server after this
     * long, so another instance's relay takes over (issue 29). The rows it was sending are sent again by the
     * new relay (at-least-once; consumers dedupe by event id).
     */
    @WithDefault("5s")
    Duration idleTransactionTimeout();

    /** Most events published per relay round trip. */
    @WithDefault("500")
    int batchSize();

    /** How long published rows stay in the table for audit before clean-up. */
    @WithDefault("P1D")
    Duration retention();
}
