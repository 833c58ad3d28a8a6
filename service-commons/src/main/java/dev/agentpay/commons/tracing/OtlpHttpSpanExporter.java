package dev.agentpay.commons.tracing;

import io.opentelemetry.exporter.internal.otlp.traces.TraceRequestMarshaler;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Spans to an OTLP/HTTP receiver (an OpenTelemetry collector, Jaeger, Tempo) as {@code application/x-protobuf}
 * {@code ExportTraceServiceRequest}s: the OpenTelemetry SDK's own marshaler ({@code opentelemetry-exporter-otlp-common},
 * the protobuf encoding) over the JDK's {@link HttpClient}. Hand-written transport, not
 * {@code opentelemetry-exporter-otlp}: that exporter's senders are okhttp 5 (which breaks web3j's okhttp 4 in
 * anchor-service and settlement-watcher) or the JDK sender, which the mirror does not carry for the platform's SDK
 * version (root README, "Tracing"). A receiver that is down or slow loses the batch (counted, logged once a minute),
 * never blocks a request: the batch processor exports on its own thread with a bounded queue.
 */
public final class OtlpHttpSpanExporter implements SpanExporter {

    private static final Logger LOG = Logger.getLogger(OtlpHttpSpanExporter.class);
    private static final long LOG_EVERY_NANOS = Duration.ofMinutes(1).toNanos();

    private final URI tracesUri;
    private final Map<String, String> headers;
    private final Duration timeout;
    private final HttpClient http;
    private final AtomicBoolean shutdown = new AtomicBoolean();
    private final AtomicLong failedBatches = new AtomicLong();
    private final AtomicLong lastLog = new AtomicLong(System.nanoTime() - LOG_EVERY_NANOS);

    /**
     * @param tracesUri the full traces URL ({@code OTEL_EXPORTER_OTLP_TRACES_ENDPOINT}, or the base endpoint + {@code /v1/traces})
     * @param headers extra request headers ({@code OTEL_EXPORTER_OTLP_HEADERS}: a collector's API key)
     */
    public OtlpHttpSpanExporter(URI tracesUri, Map<String, String> headers, Duration timeout) {
        this.tracesUri = tracesUri;
        this.headers = Map.copyOf(headers);
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).version(HttpClient.Version.HTTP_1_1).build();
    }

    /** Batches that could not be delivered since start (the receiver down, slow or refusing). */
    public long failedBatches() {
        return failedBatches.get();
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        if (shutdown.get()) {
            return CompletableResultCode.ofFailure();
        }
        byte[] body;
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            TraceRequestMarshaler.create(spans).writeBinaryTo(out);
            body = out.toByteArray();
        } catch (IOException | RuntimeException e) {
            failed("could not encode " + spans.size() + " spans: " + e.getClass().getSimpleName());
            return CompletableResultCode.ofFailure();
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(tracesUri).timeout(timeout)
                .header("Content-Type", "application/x-protobuf")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(request::header);
        CompletableResultCode result = new CompletableResultCode();
        http.sendAsync(request.build(), HttpResponse.BodyHandlers.discarding()).whenComplete((response, error) -> {
            if (error != null) {
                failed("receiver " + tracesUri + " did not answer: " + error.getClass().getSimpleName());
                result.fail();
            } else if (response.statusCode() / 100 != 2) {
                failed("receiver " + tracesUri + " answered " + response.statusCode());
                result.fail();
            } else {
                result.succeed();
            }
        });
        return result;
    }

    private void failed(String why) {
        long n = failedBatches.incrementAndGet();
        long now = System.nanoTime();
        long last = lastLog.get();
        if (now - last >= LOG_EVERY_NANOS && lastLog.compareAndSet(last, now)) {
            LOG.warnf("OTLP span export failed (%d batches lost since start): %s", n, why);
        }
    }

    @Override
    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        shutdown.set(true);
        return CompletableResultCode.ofSuccess();
    }

    /**
     * The traces URL from the standard OpenTelemetry settings: {@code tracesEndpoint} as given, else {@code endpoint}
     * with {@code /v1/traces} appended (the OTLP/HTTP exporter specification).
     */
    public static URI tracesUri(String endpoint, String tracesEndpoint) {
        if (tracesEndpoint != null && !tracesEndpoint.isBlank()) {
            return URI.create(tracesEndpoint.strip());
        }
        String base = endpoint.strip();
        return URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/v1/traces");
    }

    /** {@code OTEL_EXPORTER_OTLP_HEADERS}: {@code key=value} pairs separated by commas, values URL-decoded. */
    public static Map<String, String> headers(String spec) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        if (spec == null || spec.isBlank()) {
            return out;
        }
        for (String pair : spec.split(",")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("OTEL_EXPORTER_OTLP_HEADERS: \"key=value\" pairs separated by commas");
            }
            out.put(pair.substring(0, eq).strip(), java.net.URLDecoder.decode(pair.substring(eq + 1).strip(),
                    java.nio.charset.StandardCharsets.UTF_8));
        }
        return out;
    }
}
