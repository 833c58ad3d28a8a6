package dev.agentpay.commons.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.commons.limits.RateLimitConfig;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.vertx.http.runtime.filters.Filter;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The server span of every request, on a real Vert.x server and a real SDK tracer (no Quarkus): whose
 * {@code traceparent} is continued, the {@code traceresponse} header, the span's attributes and status, and
 * {@code /q/*} left alone. The filter runs on a duplicated context, as Quarkus runs every request.
 */
class HttpTracingFilterTest {

    static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    static final String SPAN = "00f067aa0ba902b7";
    static final String TRACEPARENT = "00-" + TRACE + "-" + SPAN + "-01";

    final SpanRecorder spans = new SpanRecorder();
    final Vertx vertx = Vertx.vertx();
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
    /** The trace id the handler behind the filter saw as current. */
    final AtomicReference<String> seen = new AtomicReference<>();
    HttpServer server;
    final AtomicReference<String> endFailure = new AtomicReference<>();

    @AfterEach
    void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @SuppressWarnings("unchecked")
    static <T> T config(Class<T> type, Map<String, Object> answers) {
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (p, m, a) -> {
            if (answers.containsKey(m.getName())) {
                return answers.get(m.getName());
            }
            if (m.getName().equals("toString")) {
                return type.getSimpleName();
            }
            throw new UnsupportedOperationException(m.getName());
        });
    }

    int start(TracingConfig.Adopt adopt) throws Exception {
        HttpTracingFilter filter = new HttpTracingFilter();
        filter.tracer = spans.tracer();
        filter.otel = OpenTelemetrySdk.builder().setTracerProvider(spans.provider)
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance())).build();
        filter.config = config(TracingConfig.class, Map.of("adoptTraceparent", adopt));
        filter.rateLimits = config(RateLimitConfig.class, Map.of("trustedProxies", List.of("127.0.0.1/32", "::1/128")));
        Filters filters = new Filters();
        filter.register(filters);
        Filter registered = filters.getFilters().get(0);
        assertThat(registered.getPriority()).as("ahead of the rate limit (300) and body limit (200)").isEqualTo(HttpTracingFilter.PRIORITY);

        Router router = Router.router(vertx);
        // Quarkus runs each request on its own duplicated context: so does this server
        router.route().handler(rc -> VertxContext.getOrCreateDuplicatedContext(vertx.getOrCreateContext())
                .runOnContext(v -> registered.getHandler().handle(rc)));
        router.route().handler(rc -> {
            rc.addEndHandler(ar -> endFailure.set(ar.failed() ? String.valueOf(ar.cause()) : "ok"));
            seen.set(Traces.currentTraceId());
            String status = rc.queryParams().get("status");
            rc.response().setStatusCode(status == null ? 200 : Integer.parseInt(status)).end("ok");
        });
        server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        return server.actualPort();
    }

    HttpResponse<String> get(int port, String path, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(10));
        headers.forEach(b::header);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    SpanData onlySpan() {
        await("the request's span ended").atMost(Duration.ofSeconds(5)).until(() -> !spans.ended.isEmpty());
        assertThat(spans.ended).hasSize(1);
        return spans.ended.get(0);
    }

    @Test
    void anInternalCallersTraceIsContinuedAndNamedInTheAnswer() throws Exception {
        int port = start(TracingConfig.Adopt.INTERNAL);

        HttpResponse<String> r = get(port, "/v1/things/1", Map.of(Traces.TRACEPARENT, TRACEPARENT));

        SpanData s = onlySpan();
        assertThat(s.getKind()).isEqualTo(SpanKind.SERVER);
        assertThat(s.getName()).isEqualTo("GET");
        assertThat(s.getTraceId()).isEqualTo(TRACE);
        assertThat(s.getParentSpanId()).isEqualTo(SPAN);
        assertThat(s.getAttributes().get(AttributeKey.stringKey("url.path"))).isEqualTo("/v1/things/1");
        assertThat(s.getAttributes().get(AttributeKey.longKey("http.response.status_code"))).isEqualTo(200L);
        assertThat(s.getStatus().getStatusCode()).as("end: %s", endFailure.get()).isEqualTo(StatusCode.UNSET);
        assertThat(r.headers().firstValue(Traces.TRACERESPONSE)).contains("00-" + TRACE + "-" + s.getSpanId() + "-01");
        assertThat(seen.get()).as("the resource runs in the trace").isEqualTo(TRACE);
    }

    @Test
    void anOutsideCallersTraceIsOnlyALink() throws Exception {
        int port = start(TracingConfig.Adopt.INTERNAL);

        HttpResponse<String> r = get(port, "/v1/things", Map.of(Traces.TRACEPARENT, TRACEPARENT, "X-Forwarded-For", "203.0.113.9"));

        SpanData s = onlySpan();
        assertThat(s.getTraceId()).isNotEqualTo(TRACE);
        assertThat(s.getParentSpanContext().isValid()).isFalse();
        assertThat(s.getLinks()).singleElement().satisfies(l -> assertThat(l.getSpanContext().getTraceId()).isEqualTo(TRACE));
        assertThat(r.headers().firstValue(Traces.TRACERESPONSE).orElseThrow()).contains(s.getTraceId());
        assertThat(seen.get()).isEqualTo(s.getTraceId());
    }

    @Test
    void withAdoptNoneEveryRequestStartsATrace() throws Exception {
        int port = start(TracingConfig.Adopt.NONE);

        get(port, "/v1/things", Map.of(Traces.TRACEPARENT, TRACEPARENT));

        assertThat(onlySpan().getTraceId()).isNotEqualTo(TRACE);
    }

    @Test
    void aServerErrorMarksTheSpanAndAMalformedTraceparentStartsATrace() throws Exception {
        int port = start(TracingConfig.Adopt.ALL);

        get(port, "/v1/things?status=503", Map.of(Traces.TRACEPARENT, "00-garbage"));

        SpanData s = onlySpan();
        assertThat(s.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(s.getAttributes().get(AttributeKey.longKey("http.response.status_code"))).isEqualTo(503L);
        assertThat(s.getParentSpanContext().isValid()).isFalse();
    }

    @Test
    void managementPathsAreNotTraced() throws Exception {
        int port = start(TracingConfig.Adopt.ALL);

        HttpResponse<String> health = get(port, "/q/health", Map.of(Traces.TRACEPARENT, TRACEPARENT));
        // a later traced request proves the filter ran past the /q/ one without a span
        get(port, "/v1/things", Map.of());

        assertThat(health.headers().firstValue(Traces.TRACERESPONSE)).isEmpty();
        assertThat(onlySpan().getAttributes().get(AttributeKey.stringKey("url.path"))).isEqualTo("/v1/things");
    }
}
