package dev.agentpay.commons.tracing;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordBatchMetadata;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The consumer span of a record or a poll batch, on a real SDK tracer (no Kafka, no Quarkus). */
class KafkaTracingInterceptorTest {

    static final String TRACE_A = "0af7651916cd43dd8448eb211c80319c";
    static final String TRACE_B = "4bf92f3577b34da6a3ce929d0e0e4736";
    static final String SPAN_1 = "b7ad6b7169203331";
    static final String SPAN_2 = "00f067aa0ba902b7";

    final SpanRecorder spans = new SpanRecorder();
    final KafkaTracingInterceptor interceptor = new KafkaTracingInterceptor();

    @BeforeEach
    void tracer() {
        interceptor.tracer = spans.tracer();
    }

    static ConsumerRecord<String, String> record(long offset, String traceparent) {
        ConsumerRecord<String, String> r = new ConsumerRecord<>("invoice-events", 2, offset, "inv-1", "{}");
        if (traceparent != null) {
            r.headers().add(Traces.TRACEPARENT, traceparent.getBytes(StandardCharsets.UTF_8));
        }
        return r;
    }

    static String traceparent(String trace, String span) {
        return "00-" + trace + "-" + span + "-01";
    }

    @Test
    void aRecordContinuesItsProducersTraceUntilItIsAcked() {
        Message<String> in = Message.of("{}").addMetadata(new IncomingKafkaRecordMetadata<>(record(41, traceparent(TRACE_A, SPAN_1)), "invoice-events-in"));

        Message<?> out = interceptor.afterMessageReceive(in);
        assertThat(spans.ended).as("open until acked").isEmpty();
        interceptor.onMessageAck(out);

        SpanData s = spans.ended.get(0);
        assertThat(spans.ended).hasSize(1);
        assertThat(s.getName()).isEqualTo("process invoice-events");
        assertThat(s.getKind()).isEqualTo(SpanKind.CONSUMER);
        assertThat(s.getTraceId()).isEqualTo(TRACE_A);
        assertThat(s.getParentSpanId()).isEqualTo(SPAN_1);
        assertThat(s.getAttributes().get(AttributeKey.longKey("messaging.destination.partition.id"))).isEqualTo(2L);
        assertThat(s.getAttributes().get(AttributeKey.longKey("messaging.kafka.offset"))).isEqualTo(41L);
        assertThat(s.getAttributes().get(AttributeKey.stringKey("messaging.channel"))).isEqualTo("invoice-events-in");
        assertThat(s.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
    }

    @Test
    void aNackedRecordEndsItsSpanAsAnErrorWithTheCause() {
        Message<String> in = Message.of("{}").addMetadata(new IncomingKafkaRecordMetadata<>(record(7, null), "c"));

        interceptor.onMessageNack(interceptor.afterMessageReceive(in), new IllegalStateException("database away"));

        SpanData s = spans.ended.get(0);
        assertThat(s.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(s.getEvents()).anySatisfy(e -> assertThat(e.getName()).isEqualTo("exception"));
        assertThat(s.getParentSpanContext().isValid()).as("no traceparent: a new trace").isFalse();
    }

    @Test
    void aMalformedTraceparentStartsANewTrace() {
        Message<String> in = Message.of("{}").addMetadata(new IncomingKafkaRecordMetadata<>(record(8, "00-zz-not-a-trace"), "c"));

        interceptor.onMessageAck(interceptor.afterMessageReceive(in));

        assertThat(spans.ended.get(0).getParentSpanContext().isValid()).isFalse();
    }

    @Test
    void aBatchOfOneTraceContinuesItAndABatchOfSeveralLinksThem() {
        TopicPartition tp = new TopicPartition("invoice-events", 2);
        ConsumerRecords<String, String> oneTrace = new ConsumerRecords<>(Map.of(tp, List.of(
                record(1, traceparent(TRACE_A, SPAN_1)), record(2, traceparent(TRACE_A, SPAN_2)))));
        interceptor.onMessageAck(interceptor.afterMessageReceive(Message.of("batch")
                .addMetadata(new IncomingKafkaRecordBatchMetadata<>(oneTrace, "c", Map.of()))));

        ConsumerRecords<String, String> twoTraces = new ConsumerRecords<>(Map.of(tp, List.of(
                record(3, traceparent(TRACE_A, SPAN_1)), record(4, traceparent(TRACE_B, SPAN_2)), record(5, null))));
        interceptor.onMessageAck(interceptor.afterMessageReceive(Message.of("batch")
                .addMetadata(new IncomingKafkaRecordBatchMetadata<>(twoTraces, "c", Map.of()))));

        SpanData one = spans.ended.get(0);
        assertThat(one.getTraceId()).isEqualTo(TRACE_A);
        assertThat(one.getParentSpanId()).as("the batch's last record").isEqualTo(SPAN_2);
        assertThat(one.getAttributes().get(AttributeKey.longKey("messaging.batch.message_count"))).isEqualTo(2L);
        SpanData mixed = spans.ended.get(1);
        assertThat(mixed.getTraceId()).isNotIn(TRACE_A, TRACE_B);
        assertThat(mixed.getParentSpanContext().isValid()).isFalse();
        assertThat(mixed.getLinks()).extracting(LinkData::getSpanContext).extracting(c -> c.getTraceId())
                .containsExactly(TRACE_A, TRACE_B);
        assertThat(mixed.getAttributes().get(AttributeKey.longKey("messaging.batch.message_count"))).isEqualTo(3L);
    }

    @Test
    void aMessageWithoutKafkaMetadataIsLeftAlone() {
        Message<String> in = Message.of("x");

        Message<?> out = interceptor.afterMessageReceive(in);
        interceptor.onMessageAck(out);

        assertThat(out).isSameAs(in);
        assertThat(spans.ended).isEmpty();
    }
}
