package dev.agentpay.settlement;

import dev.agentpay.commons.events.ChainTransferEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads everything the watcher published to {@code chain-transfers} on the real broker. */
final class TransferEvents implements AutoCloseable {

    private final KafkaConsumer<String, String> consumer;
    private final List<ChainTransferEvent> seen = new ArrayList<>();

    TransferEvents(String bootstrap) {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "test-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer());
        consumer.subscribe(List.of(Topics.CHAIN_TRANSFERS));
    }

    /** Polls for up to {@code within} and returns every event seen so far that matches. */
    List<ChainTransferEvent> matching(Predicate<ChainTransferEvent> p, Duration within) {
        long deadline = System.nanoTime() + within.toNanos();
        do {
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
                ChainTransferEvent e = EventCodec.decode(r.value(), ChainTransferEvent.class);
                if (!r.key().equals(e.aggregateId())) {
                    throw new AssertionError("record key " + r.key() + " is not the transfer id " + e.aggregateId());
                }
                seen.add(e);
            }
        } while (System.nanoTime() < deadline);
        return seen.stream().filter(p).toList();
    }

    /** Waits until {@code count} matching events arrived (or fails), then returns them. */
    List<ChainTransferEvent> await(Predicate<ChainTransferEvent> p, int count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            List<ChainTransferEvent> m = matching(p, Duration.ZERO);
            if (m.size() >= count) {
                return m;
            }
        }
        throw new AssertionError("expected " + count + " matching events, saw " + seen.stream().filter(p).toList());
    }

    @Override
    public void close() {
        consumer.close();
    }
}
