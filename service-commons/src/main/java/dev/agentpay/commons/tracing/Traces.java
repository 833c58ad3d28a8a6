package dev.agentpay.commons.tracing;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.smallrye.common.vertx.VertxContext;
import java.util.Collections;
import org.jboss.logging.MDC;

/**
 * The trace of the running code and its W3C encoding, shared by HTTP, Kafka headers and outbox rows.
 * <p>
 * The current trace lives on the Vert.x duplicated context, which Quarkus creates per HTTP request and
 * SmallRye per Kafka message and which follows the work across event-loop hops, database callbacks and
 * worker threads; a thread-local would be lost at the first hop, or leak into the next request on the
 * same event loop. OpenTelemetry's own {@link Context#current()} is consulted only off a duplicated
 * context (code that opened a scope itself). The trace and span ids are mirrored into the MDC, which
 * Quarkus also keeps per duplicated context, so every log line of the work names its trace.
 */
public final class Traces {

    /** W3C request header (and Kafka record header) carrying the parent span. */
    public static final String TRACEPARENT = "traceparent";
    /** W3C Trace Context Level 2 response header telling the caller which trace served it. */
    public static final String TRACERESPONSE = "traceresponse";
    /** MDC keys, used by the shared console log format. */
    public static final String MDC_TRACE_ID = "traceId";
    public static final String MDC_SPAN_ID = "spanId";

    private static final String KEY = "agentpay.trace";

    private static final TextMapGetter<String> SINGLE = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(String carrier) {
            return Collections.singletonList(TRACEPARENT);
        }

        @Override
        public String get(String carrier, String key) {
            return TRACEPARENT.equals(key) ? carrier : null;
        }
    };

    private Traces() {
    }

    /** The trace context of the running work (root when there is none). */
    public static Context current() {
        io.vertx.core.Context vertx = io.vertx.core.Vertx.currentContext();
        if (vertx != null && VertxContext.isDuplicatedContext(vertx)) {
            Context c = vertx.getLocal(KEY);
            return c == null ? Context.root() : c;
        }
        return Context.current();
    }

    /**
     * Makes {@code context} the current trace of the running work for the rest of its duplicated
     * context's life, and puts its ids into the MDC. Returns false (and changes nothing) off a
     * duplicated context, where nothing would end it.
     */
    public static boolean attach(Context context) {
        io.vertx.core.Context vertx = io.vertx.core.Vertx.currentContext();
        if (vertx == null || !VertxContext.isDuplicatedContext(vertx)) {
            return false;
        }
        vertx.putLocal(KEY, context);
        SpanContext sc = Span.fromContext(context).getSpanContext();
        if (sc.isValid()) {
            MDC.put(MDC_TRACE_ID, sc.getTraceId());
            MDC.put(MDC_SPAN_ID, sc.getSpanId());
        } else {
            MDC.remove(MDC_TRACE_ID);
            MDC.remove(MDC_SPAN_ID);
        }
        return true;
    }

    /** The {@code traceparent} of the current span, or {@code null} outside any trace. */
    public static String currentTraceparent() {
        return traceparent(Span.fromContext(current()).getSpanContext());
    }

    /** The trace id of the current span, or {@code null} outside any trace. */
    public static String currentTraceId() {
        SpanContext sc = Span.fromContext(current()).getSpanContext();
        return sc.isValid() ? sc.getTraceId() : null;
    }

    /** Encodes a span context as a W3C {@code traceparent} ({@code 00-<trace>-<span>-<flags>}), null if invalid. */
    public static String traceparent(SpanContext sc) {
        if (sc == null || !sc.isValid()) {
            return null;
        }
        return "00-" + sc.getTraceId() + "-" + sc.getSpanId() + "-" + sc.getTraceFlags().asHex();
    }

    /**
     * The remote parent a {@code traceparent} names, on top of {@link Context#root()}; the root context
     * when the value is missing or malformed (a bad header starts a new trace, it never fails a request).
     */
    public static Context parent(String traceparent) {
        if (traceparent == null || traceparent.isBlank()) {
            return Context.root();
        }
        return W3CTraceContextPropagator.getInstance().extract(Context.root(), traceparent.trim(), SINGLE);
    }
}
