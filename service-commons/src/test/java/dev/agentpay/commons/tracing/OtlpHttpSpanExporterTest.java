package dev.agentpay.commons.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link OtlpHttpSpanExporter} against a receiver that decodes what arrives with the protocol's own generated classes
 * ({@code opentelemetry-proto}): the spans, their trace ids and parentage, the service name, the content type and the
 * configured headers arrive; a receiver that refuses or is gone counts a lost batch and never throws into the caller.
 */
class OtlpHttpSpanExporterTest {

    private HttpServer receiver;
    private final List<ExportTraceServiceRequest> received = new CopyOnWriteArrayList<>();
    private final List<String> contentTypes = new CopyOnWriteArrayList<>();
    private final List<String> apiKeys = new CopyOnWriteArrayList<>();
    private volatile int status = 200;

    @BeforeEach
    void start() throws Exception {
        receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/v1/traces", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            contentTypes.add(exchange.getRequestHeaders().getFirst("Content-Type"));
            apiKeys.add(String.valueOf(exchange.getRequestHeaders().getFirst("x-collector-key")));
            if (status == 200) {
                received.add(ExportTraceServiceRequest.parseFrom(body));
            }
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        receiver.start();
    }

    @AfterEach
    void stop() {
        receiver.stop(0);
    }

    private String endpoint() {
        return "http://127.0.0.1:" + receiver.getAddress().getPort();
    }

    private static SdkTracerProvider provider(OtlpHttpSpanExporter exporter) {
        return SdkTracerProvider.builder()
                .setResource(Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "otlp-test")))
                .addSpanProcessor(BatchSpanProcessor.builder(exporter).setScheduleDelay(Duration.ofMillis(50)).build()).build();
    }

    @Test
    void spansArriveAsOtlpProtobufWithTheirTraceAndParent() {
        OtlpHttpSpanExporter exporter = new OtlpHttpSpanExporter(OtlpHttpSpanExporter.tracesUri(endpoint() + "/", null),
                OtlpHttpSpanExporter.headers("x-collector-key=k%3D1"), Duration.ofSeconds(5));
        SdkTracerProvider provider = provider(exporter);
        Tracer tracer = provider.get("test");
        Span parent = tracer.spanBuilder("POST /v1/mandates").startSpan();
        String traceId = parent.getSpanContext().getTraceId();
        try (Scope ignored = parent.makeCurrent()) {
            tracer.spanBuilder("outbox publish").startSpan().end();
        } finally {
            parent.end();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> received.stream().mapToLong(r -> spans(r).size()).sum() == 2);
        provider.close();

        assertThat(contentTypes).allMatch("application/x-protobuf"::equals);
        assertThat(apiKeys).allMatch("k=1"::equals);
        ResourceSpans rs = received.get(0).getResourceSpans(0);
        assertThat(rs.getResource().getAttributesList()).anyMatch(a -> a.getKey().equals("service.name")
                && a.getValue().getStringValue().equals("otlp-test"));
        List<io.opentelemetry.proto.trace.v1.Span> all = received.stream().flatMap(r -> spans(r).stream()).toList();
        assertThat(all).extracting(s -> HexFormat.of().formatHex(s.getTraceId().toByteArray())).containsOnly(traceId);
        io.opentelemetry.proto.trace.v1.Span child = all.stream().filter(s -> s.getName().equals("outbox publish")).findFirst().orElseThrow();
        assertThat(HexFormat.of().formatHex(child.getParentSpanId().toByteArray())).isEqualTo(parent.getSpanContext().getSpanId());
        assertThat(exporter.failedBatches()).isZero();
    }

    @Test
    void aRefusingOrMissingReceiverLosesTheBatchVisiblyAndNeverThrows() {
        status = 503;
        OtlpHttpSpanExporter exporter = new OtlpHttpSpanExporter(OtlpHttpSpanExporter.tracesUri(endpoint(), null), Map.of(),
                Duration.ofSeconds(5));
        SdkTracerProvider provider = provider(exporter);
        provider.get("test").spanBuilder("refused").startSpan().end();
        await().atMost(Duration.ofSeconds(10)).until(() -> exporter.failedBatches() >= 1);
        provider.close();
        assertThat(received).isEmpty();

        receiver.stop(0);
        OtlpHttpSpanExporter gone = new OtlpHttpSpanExporter(OtlpHttpSpanExporter.tracesUri(endpoint(), null), Map.of(),
                Duration.ofSeconds(2));
        SdkTracerProvider provider2 = provider(gone);
        provider2.get("test").spanBuilder("nobody listens").startSpan().end();
        await().atMost(Duration.ofSeconds(10)).until(() -> gone.failedBatches() >= 1);
        provider2.close();
    }

    @Test
    void endpointsAndHeadersFollowTheOpenTelemetrySettings() {
        assertThat(OtlpHttpSpanExporter.tracesUri("http://collector:4318", null)).isEqualTo(URI.create("http://collector:4318/v1/traces"));
        assertThat(OtlpHttpSpanExporter.tracesUri("http://collector:4318/", "")).isEqualTo(URI.create("http://collector:4318/v1/traces"));
        assertThat(OtlpHttpSpanExporter.tracesUri("http://ignored", "https://tempo/otlp/v1/traces"))
                .isEqualTo(URI.create("https://tempo/otlp/v1/traces"));
        assertThat(OtlpHttpSpanExporter.headers("a=1, b = two%20words")).containsExactly(Map.entry("a", "1"), Map.entry("b", "two words"));
        assertThat(OtlpHttpSpanExporter.headers(null)).isEmpty();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> OtlpHttpSpanExporter.headers("novalue"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static List<io.opentelemetry.proto.trace.v1.Span> spans(ExportTraceServiceRequest r) {
        return r.getResourceSpansList().stream().flatMap(rs -> rs.getScopeSpansList().stream())
                .flatMap(ss -> ss.getSpansList().stream()).toList();
    }
}
