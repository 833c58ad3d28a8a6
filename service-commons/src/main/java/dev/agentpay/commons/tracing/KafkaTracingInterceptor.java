package dev.agentpay.commons.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.smallrye.reactive.messaging.IncomingInterceptor;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordBatchMetadata;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * Continues the producer's trace in every Kafka consumer of every service, without touching the
 * {@code @Incoming} methods: SmallRye applies this default {@link IncomingInterceptor} to each incoming
 * connector channel. For each record (or poll batch) it starts a consumer span whose parent is the
 * record's {@code traceparent} header, makes it current on the message's own Vert.x duplicated context
 * (where the method then runs), and ends it when the message is acked or nacked. So the effects, the
 * consumer's own outbox rows and its log lines carry the producer's trace id.
 * <p>
 * A batch whose records all belong to one trace continues that trace (the common case: a poll returns
 * what one request caused); a batch mixing traces gets a new trace linked to each of them.
 */
@ApplicationScoped
public class KafkaTracingInterceptor implements IncomingInterceptor {

    private static final AttributeKey<String> SYSTEM = AttributeKey.stringKey("messaging.system");
    private static final AttributeKey<String> DESTINATION = AttributeKey.stringKey("messaging.destination.name");
    private static final AttributeKey<String> OPERATION = AttributeKey.stringKey("messaging.operation.type");
    private static final AttributeKey<Long> PARTITION = AttributeKey.longKey("messaging.destination.partition.id");
    private static final AttributeKey<Long> OFFSET = AttributeKey.longKey("messaging.kafka.offset");
    private static final AttributeKey<Long> BATCH = AttributeKey.longKey("messaging.batch.message_count");
    private static final AttributeKey<String> CHANNEL = AttributeKey.stringKey("messaging.channel");

    /** Carries the span from receipt to ack/nack. */
    record ConsumerSpan(Span span) {
    }

    @Inject
    Tracer tracer;

    @Override
    public Message<?> afterMessageReceive(Message<?> message) {
        Span span = start(message);
        if (span == null) {
            return message;
        }
        // the interceptor runs on the message's duplicated context, which the method invocation reuses
        Traces.attach(Context.root().with(span));
        return message.addMetadata(new ConsumerSpan(span));
    }

    @Override
    public void onMessageAck(Message<?> message) {
        message.getMetadata(ConsumerSpan.class).ifPresent(s -> s.span().end());
    }

    @Override
    public void onMessageNack(Message<?> message, Throwable failure) {
        message.getMetadata(ConsumerSpan.class).ifPresent(s -> {
            s.span().recordException(failure);
            s.span().setStatus(StatusCode.ERROR);
            s.span().end();
        });
    }

    @SuppressWarnings("unchecked")
    private Span start(Message<?> message) {
        Optional<IncomingKafkaRecordMetadata> single = message.getMetadata(IncomingKafkaRecordMetadata.class);
        if (single.isPresent()) {
            IncomingKafkaRecordMetadata<?, ?> m = single.get();
            return builder(m.getTopic(), m.getChannel())
                    .setParent(Traces.parent(traceparent(m.getHeaders())))
                    .setAttribute(PARTITION, (long) m.getPartition())
                    .setAttribute(OFFSET, m.getOffset())
                    .startSpan();
        }
        Optional<IncomingKafkaRecordBatchMetadata> batch = message.getMetadata(IncomingKafkaRecordBatchMetadata.class);
        if (batch.isEmpty()) {
            return null;
        }
        IncomingKafkaRecordBatchMetadata<?, ?> b = batch.get();
        List<SpanContext> parents = new ArrayList<>();
        String topic = null;
        for (ConsumerRecord<?, ?> r : b.getRecords()) {
            topic = topic == null ? r.topic() : topic;
            SpanContext sc = Span.fromContext(Traces.parent(traceparent(r.headers()))).getSpanContext();
            if (sc.isValid()) {
                parents.add(sc);
            }
        }
        SpanBuilder builder = builder(topic, b.getChannel()).setAttribute(BATCH, (long) b.count());
        boolean oneTrace = !parents.isEmpty() && parents.stream().map(SpanContext::getTraceId).distinct().count() == 1;
        if (oneTrace) {
            builder.setParent(Context.root().with(Span.wrap(parents.get(parents.size() - 1))));
        } else {
            builder.setNoParent();
        }
        for (SpanContext p : parents) {
            builder.addLink(p);
        }
        return builder.startSpan();
    }

    private SpanBuilder builder(String topic, String channel) {
        return tracer.spanBuilder("process " + (topic == null ? channel : topic))
                .setSpanKind(SpanKind.CONSUMER)
                .setAttribute(SYSTEM, "kafka")
                .setAttribute(OPERATION, "process")
                .setAttribute(DESTINATION, topic)
                .setAttribute(CHANNEL, channel);
    }

    /** The {@code traceparent} header of a Kafka record, or null. */
    public static String traceparent(Headers headers) {
        Header h = headers == null ? null : headers.lastHeader(Traces.TRACEPARENT);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
