package dev.agentpay.commons.tracing;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/**
 * Tracing of every service (root README, "Tracing"). Trace ids are always created and propagated
 * (HTTP {@code traceparent}, Kafka headers, outbox rows, log lines); exporting spans is optional.
 */
@ConfigMapping(prefix = "platform.tracing")
public interface TracingConfig {

    /**
     * OTLP/HTTP (protobuf) collector base address, e.g. {@code http://otel-collector:4318}; spans are sent
     * to {@code <endpoint>/v1/traces}. Unset (the default) exports nothing. The shared defaults fill it
     * from the standard {@code OTEL_EXPORTER_OTLP_ENDPOINT} environment variable.
     */
    Optional<String> otlpEndpoint();

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
