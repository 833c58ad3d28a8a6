package dev.agentpay.commons.tracing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * One server span per HTTP request, continuing the caller's {@code traceparent} when the caller is one of
 * ours ({@link TracingConfig#adoptTraceparent}; an outside caller's becomes a span link on a new trace, a
 * malformed one starts a new trace); the span is made current on the request's Vert.x duplicated context, so the resource,
 * the outbox rows it writes and its log lines carry the trace. Every answer names its trace in a
 * {@code traceresponse} header. A Vert.x route filter, ahead of the body and rate limits, so refusals
 * and the non-JAX-RS MCP endpoint are traced too; {@code /q/*} is not.
 */
@ApplicationScoped
public class HttpTracingFilter {

    /** Runs before the rate limit (300) and body limit (200): higher runs first. */
    static final int PRIORITY = 400;

    private static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
    private static final AttributeKey<String> PATH = AttributeKey.stringKey("url.path");
    private static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");

    private static final TextMapGetter<HttpServerRequest> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(HttpServerRequest carrier) {
            return carrier.headers().names();
        }

        @Override
        public String get(HttpServerRequest carrier, String key) {
            return carrier == null ? null : carrier.getHeader(key);
        }
    };

    @Inject
    OpenTelemetry otel;

    @Inject
    Tracer tracer;

    @Inject
    TracingConfig config;

    @Inject
    dev.agentpay.commons.limits.RateLimitConfig rateLimits;

    private dev.agentpay.commons.limits.ClientAddress clients;

    void register(@Observes Filters filters) {
        clients = new dev.agentpay.commons.limits.ClientAddress(rateLimits.trustedProxies());
        filters.register(this::handle, PRIORITY);
    }

    /** Whether this request's {@code traceparent} is continued (TracingConfig.adoptTraceparent). */
    boolean adopts(HttpServerRequest req) {
        return switch (config.adoptTraceparent()) {
            case ALL -> true;
            case NONE -> false;
            case INTERNAL -> clients.isInternal(req.remoteAddress() == null ? null : req.remoteAddress().hostAddress(),
                    req.getHeader("X-Forwarded-For"));
        };
    }

    void handle(RoutingContext rc) {
        String path = rc.normalizedPath();
        if (path == null || path.startsWith("/q/") || !VertxContext.isOnDuplicatedContext()) {
            rc.next();
            return;
        }
        HttpServerRequest req = rc.request();
        Context parent = otel.getPropagators().getTextMapPropagator().extract(Context.root(), req, HEADERS);
        io.opentelemetry.api.trace.SpanBuilder builder = tracer.spanBuilder(req.method().name())
                .setSpanKind(SpanKind.SERVER)
                .setAttribute(METHOD, req.method().name())
                .setAttribute(PATH, path);
        io.opentelemetry.api.trace.SpanContext remote = Span.fromContext(parent).getSpanContext();
        if (!remote.isValid() || adopts(req)) {
            builder.setParent(parent);
        } else {
            // an outside caller's trace is a link, not ours to continue (TracingConfig.adoptTraceparent)
            parent = Context.root();
            builder.setNoParent().addLink(remote);
        }
        Span span = builder.startSpan();
        Traces.attach(parent.with(span));
        String id = Traces.traceparent(span.getSpanContext());
        if (id != null) {
            rc.response().putHeader(Traces.TRACERESPONSE, id);
        }
        rc.addEndHandler(ar -> {
            int status = rc.response().getStatusCode();
            span.setAttribute(STATUS, (long) status);
            if (status >= 500 || ar.failed()) {
                span.setStatus(StatusCode.ERROR);
            }
            span.end();
        });
        rc.next();
    }
}
