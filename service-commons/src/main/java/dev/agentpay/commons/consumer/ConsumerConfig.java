package dev.agentpay.commons.consumer;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The consumer discipline's timing ({@link Consumers}). */
@ConfigMapping(prefix = "platform.consumers")
public interface ConsumerConfig {

    /** First wait before a failed record is tried again; it doubles on each failure. */
    @WithDefault("200ms")
    Duration initialBackoff();

    /** Longest wait between two tries; bounds how soon a consumer resumes after its database returns. */
    @WithDefault("15s")
    Duration maxBackoff();

    /** A consumer retrying one record for longer than this is reported stalled (readiness DOWN) until it moves. */
    @WithDefault("30s")
    Duration stallAfter();
}
