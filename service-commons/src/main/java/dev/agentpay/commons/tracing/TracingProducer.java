package dev.agentpay.commons.tracing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.exporter.logging.LoggingSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SdkTracerProviderBuilder;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The one OpenTelemetry SDK of a service: W3C trace-context propagation, {@code service.name} from
 * {@code quarkus.application.name}, parent-based sampling, spans exported over OTLP/HTTP when
 * {@code OTEL_EXPORTER_OTLP_ENDPOINT} (or {@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT}) is set ({@link OtlpHttpSpanExporter}, batched),
 * and written to the log only when {@link TracingConfig#logSpans()} asks for it. Not registered as the global instance, so several applications in one test
 * JVM do not collide; inject {@link OpenTelemetry} or {@link Tracer}.
 */
@ApplicationScoped
public class TracingProducer {

    /** Instrumentation scope of the platform's own spans. */
    public static final String SCOPE = "dev.agentpay";

    @Produces
    @Singleton
    OpenTelemetrySdk openTelemetry(TracingConfig config,
            @ConfigProperty(name = "quarkus.application.name", defaultValue = "agentpay") String serviceName,
            @ConfigProperty(name = "otel.exporter.otlp.endpoint") Optional<String> otlpEndpoint,
            @ConfigProperty(name = "otel.exporter.otlp.traces.endpoint") Optional<String> otlpTracesEndpoint,
            @ConfigProperty(name = "otel.exporter.otlp.headers") Optional<String> otlpHeaders) {
        SdkTracerProviderBuilder tracers = SdkTracerProvider.builder()
                .setResource(Resource.getDefault().merge(Resource.create(Attributes.of(
                        io.opentelemetry.api.common.AttributeKey.stringKey("service.name"), serviceName))))
                .setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(config.sampleRatio())));
        if (otlpEndpoint.filter(e -> !e.isBlank()).isPresent() || otlpTracesEndpoint.filter(e -> !e.isBlank()).isPresent()) {
            tracers.addSpanProcessor(BatchSpanProcessor.builder(new OtlpHttpSpanExporter(
                    OtlpHttpSpanExporter.tracesUri(otlpEndpoint.orElse(""), otlpTracesEndpoint.orElse(null)),
                    OtlpHttpSpanExporter.headers(otlpHeaders.orElse(null)), Duration.ofSeconds(10)))
                    .setScheduleDelay(Duration.ofMillis(config.otlpScheduleDelayMillis())).build());
        }
        if (config.logSpans()) {
            tracers.addSpanProcessor(SimpleSpanProcessor.create(LoggingSpanExporter.create()));
        }
        return OpenTelemetrySdk.builder()
                .setTracerProvider(tracers.build())
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
    }

    /** Flushes spans still queued for export. */
    void close(@Disposes OpenTelemetrySdk sdk) {
        sdk.close();
    }

    @Produces
    @Singleton
    Tracer tracer(OpenTelemetrySdk sdk) {
        return sdk.getTracer(SCOPE);
    }
}
