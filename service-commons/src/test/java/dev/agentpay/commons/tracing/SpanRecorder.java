package dev.agentpay.commons.tracing;

import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A real SDK tracer whose ended spans are kept in memory, for the tracing classes' plain unit tests. */
final class SpanRecorder implements SpanExporter {

    final List<SpanData> ended = new CopyOnWriteArrayList<>();
    final SdkTracerProvider provider = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(this)).build();

    Tracer tracer() {
        return provider.get(TracingProducer.SCOPE);
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        ended.addAll(spans);
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }
}
