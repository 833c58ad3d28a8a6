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
     * Interval of the safety-net poll (e.g. {@code 1s}); commits wake the relay at once through
     * LISTEN/NOTIFY, so this only bounds the delay when that connection is down.
     */
    @WithDefault("1s")
    String pollInterval();

    /** Most events published per relay round trip. */
    @WithDefault("500")
    int batchSize();

    /** How long published rows stay in the table for audit before clean-up. */
    @WithDefault("P1D")
    Duration retention();
}
