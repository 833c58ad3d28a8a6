package dev.agentpay.commons.consumer;

import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

/** Where a dead-lettered record came from: copied into the dead letter's key and headers. */
public record SourceRecord(String topic, int partition, long offset, String key, Headers headers, String payload) {

    public static SourceRecord of(ConsumerRecord<String, String> r) {
        return new SourceRecord(r.topic(), r.partition(), r.offset(), r.key(), r.headers(), r.value());
    }

    public static SourceRecord of(IncomingKafkaRecordMetadata<?, ?> meta, String payload) {
        if (meta == null) {
            return new SourceRecord(null, -1, -1, null, new RecordHeaders(), payload);
        }
        return new SourceRecord(meta.getTopic(), meta.getPartition(), meta.getOffset(),
                meta.getKey() == null ? null : meta.getKey().toString(), meta.getHeaders(), payload);
    }
}
