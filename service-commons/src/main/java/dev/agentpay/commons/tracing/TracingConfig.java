package dev.agentpay.commons.tracing;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Tracing of every service (root README, "Tracing"). Trace ids are always created and propagated
 * (HTTP {@code traceparent}, Kafka headers, outbox rows, log lines); spans are exported over OTLP/HTTP when the
 * standard {@code OTEL_EXPORTER_OTLP_ENDPOINT} is set, and to the log when asked (root README, "Tracing").
 */
@ConfigMapping(prefix = "platform.tracing")
public interface TracingConfig {

    /** Whether every finished span is also written to the log (OpenTelemetry's logging exporter; debugging only). */
    @WithDefault("false")
    boolean logSpans();

    /** How long the OTLP batch processor waits before it sends a batch that is not full, in milliseconds. */
    @WithDefault("1000")
    long otlpScheduleDelayMillis();

    /**
     * Share of new traces (requests arriving without a sampled {@code traceparent}) that are recorded and
     * exported, 0.0 to 1.0; a caller's sampling decision is always honoured. Trace ids are propagated and
     * logged whatever the decision.
     */
    @WithDefault("1.0")
    double sampleRatio();

    /** Which callers' {@code traceparent} a request's span continues. */
    enum Adopt {
        /** Only our own services and the operator: a trusted address and no {@code X-Forwarded-For} (the default). */
        INTERNAL,
        /** Every caller's (a deployment whose edge already strips or re-signs the header). */
        ALL,
        /** Nobody's: every request starts a trace. */
        NONE
    }

    /**
     * Whose {@code traceparent} becomes the request's trace ({@code internal}, {@code all}, {@code none}).
     * Any other caller's is kept as a span link and the request starts its own trace, so an outside
     * caller cannot choose the trace id (to join or pollute another trace, or to learn one) that the
     * platform's logs, events and outbox rows carry; {@code traceresponse} names the trace it got.
     */
    @WithDefault("internal")
    Adopt adoptTraceparent();
}
