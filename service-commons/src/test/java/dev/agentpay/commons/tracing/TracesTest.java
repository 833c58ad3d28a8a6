package dev.agentpay.commons.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.context.Context;
import org.junit.jupiter.api.Test;

/** The W3C encoding shared by HTTP, Kafka headers and outbox rows; the services' tests cover the wiring. */
class TracesTest {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String SPAN = "00f067aa0ba902b7";

    @Test
    void aValidTraceparentIsTheRemoteParentAndEncodesBackUnchanged() {
        String header = "00-" + TRACE + "-" + SPAN + "-01";
        SpanContext sc = Span.fromContext(Traces.parent(header)).getSpanContext();
        assertThat(sc.isValid()).isTrue();
        assertThat(sc.isRemote()).isTrue();
        assertThat(sc.getTraceId()).isEqualTo(TRACE);
        assertThat(sc.getSpanId()).isEqualTo(SPAN);
        assertThat(sc.isSampled()).isTrue();
        assertThat(Traces.traceparent(sc)).isEqualTo(header);
        assertThat(Span.fromContext(Traces.parent(" 00-" + TRACE + "-" + SPAN + "-00 ")).getSpanContext().isSampled()).isFalse();
    }

    @Test
    void aMissingOrMalformedTraceparentStartsANewTrace() {
        for (String bad : new String[] {null, "", "garbage", "00-" + TRACE + "-" + SPAN, "00-" + "0".repeat(32) + "-" + SPAN + "-01",
                "00-" + TRACE + "-" + "0".repeat(16) + "-01", "00-" + TRACE.toUpperCase() + "-" + SPAN + "-01", "ff-" + TRACE + "-" + SPAN + "-01"}) {
            assertThat(Traces.parent(bad)).as(String.valueOf(bad)).isSameAs(Context.root());
        }
        assertThat(Traces.traceparent(SpanContext.getInvalid())).isNull();
        assertThat(Traces.traceparent(null)).isNull();
    }

    @Test
    void offAVertxContextNothingIsAttachedAndThereIsNoTrace() {
        assertThat(Traces.attach(Traces.parent("00-" + TRACE + "-" + SPAN + "-01"))).isFalse();
        assertThat(Traces.currentTraceparent()).isNull();
        assertThat(Traces.currentTraceId()).isNull();
    }
}
