package dev.agentpay.commons.consumer;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

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

    /**
     * How long a consumer's {@code processed_event} marks are kept ({@link ProcessedEventPruner}): longer than any
     * redelivery of a record, which the topics' retention (7 days) bounds.
     */
    @WithDefault("P8D")
    Duration processedRetention();

    /**
     * Retentions of their own for named consumers' marks: {@code <consumer>=<ISO 8601 duration>} pairs separated by
     * commas, the consumer being its {@code processed_event.consumer} value (e.g. {@code webhook-dispatcher=P30D}).
     */
    Optional<String> processedRetentionPerConsumer();

    /** {@link #processedRetentionPerConsumer()} parsed; a malformed pair stops the start with its text. */
    default Map<String, Duration> processedRetentionOverrides() {
        Map<String, Duration> out = new LinkedHashMap<>();
        for (String pair : processedRetentionPerConsumer().orElse("").split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            int eq = pair.indexOf('=');
            try {
                out.put(pair.substring(0, eq).strip(), Duration.parse(pair.substring(eq + 1).strip()));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("platform.consumers.processed-retention-per-consumer: \"" + pair.strip()
                        + "\" is not <consumer>=<ISO 8601 duration>", e);
            }
        }
        return out;
    }

    /**
     * On SIGTERM (the pre-shutdown event, while the database pool is open), how long the records being applied may
     * take to finish before the shutdown goes on ({@link Consumers}: no new record starts meanwhile).
     */
    @WithDefault("5s")
    Duration drainTimeout();

    /** Marks deleted per statement while pruning (one short transaction each). */
    @WithDefault("5000")
    int pruneBatchSize();
}
