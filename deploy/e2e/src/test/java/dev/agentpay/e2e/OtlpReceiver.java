package dev.agentpay.e2e;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The OTLP/HTTP trace receiver of this test JVM (what an operator's collector, Jaeger or Tempo is to the services): the
 * shared stack's services export to it ({@code OTEL_EXPORTER_OTLP_ENDPOINT}, set by {@link LocalStackProcess}); it
 * decodes every {@code ExportTraceServiceRequest} with the protocol's generated classes ({@code opentelemetry-proto})
 * and keeps each span with its service.
 */
final class OtlpReceiver {

    /** One received span: the exporting service, the span's name, trace id and ids in hex. */
    record ReceivedSpan(String service, String name, String traceId, String spanId, String parentSpanId) {
    }

    private static OtlpReceiver shared;

    private final HttpServer server;
    private final List<ReceivedSpan> spans = new CopyOnWriteArrayList<>();

    private OtlpReceiver() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/v1/traces", exchange -> {
            try (exchange) {
                byte[] body = exchange.getRequestBody().readAllBytes();
                ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(body);
                for (ResourceSpans rs : request.getResourceSpansList()) {
                    String service = rs.getResource().getAttributesList().stream().filter(a -> a.getKey().equals("service.name"))
                            .map(KeyValue::getValue).map(v -> v.getStringValue()).findFirst().orElse("?");
                    rs.getScopeSpansList().forEach(ss -> ss.getSpansList().forEach(s -> spans.add(new ReceivedSpan(service,
                            s.getName(), hex(s.getTraceId().toByteArray()), hex(s.getSpanId().toByteArray()),
                            hex(s.getParentSpanId().toByteArray())))));
                }
                exchange.sendResponseHeaders(200, -1);
            } catch (RuntimeException | IOException e) {
                exchange.sendResponseHeaders(400, -1);
            }
        });
        server.start();
    }

    static synchronized OtlpReceiver shared() {
        if (shared == null) {
            shared = new OtlpReceiver();
        }
        return shared;
    }

    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Every span received so far with this trace id. */
    List<ReceivedSpan> trace(String traceId) {
        return spans.stream().filter(s -> s.traceId().equals(traceId)).toList();
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }
}
