package dev.agentpay.commons.tracing;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Tracing of every service (root README, "Tracing"). Trace ids are always created and propagated
 * (HTTP {@code traceparent}, Kafka headers, outbox rows, log lines); spans are exported only to the log
 * when asked (no OTLP exporter yet: see the root README, "Tracing").
 */
@ConfigMapping(prefix = "platform.tracing")
public interface TracingConfig {

    /** Whether every finished span is also written to the log (OpenTelemetry's logging exporter; debugging only). */
    @WithDefault("false")
    boolean logSpans();

    /**
     * Share of new traces (requests arriving without a sampled {@code traceparent}) that are recorded and
     * exported, 0.0 to 1.0; a caller's sampling decision is always honoured. Trace ids are propagated and
     * logged whatever the decision.
     */
    @WithDefault("1.0")
    double sampleRatio();
}
