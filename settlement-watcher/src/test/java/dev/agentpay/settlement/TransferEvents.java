package dev.agentpay.settlement;

import dev.agentpay.commons.events.ChainTransferEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.localstack.testing.TestKafka;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.awaitility.Awaitility;

/** Reads everything the watcher published to {@code chain-transfers} on the real broker (KafkaCompanion, {@link TestKafka}). */
final class TransferEvents implements AutoCloseable {

    private final ConsumerTask<String, String> records;

    TransferEvents(String bootstrap) {
        records = TestKafka.collectAt(bootstrap, Topics.CHAIN_TRANSFERS);
    }

    /** Every event seen so far that matches. */
    List<ChainTransferEvent> matching(Predicate<ChainTransferEvent> p) {
        return seen().stream().filter(p).toList();
    }

    /** Fails if a matching event arrives (or had arrived) within {@code period}: nothing of the kind is held for the period. */
    void noneDuring(Predicate<ChainTransferEvent> p, Duration period) {
        Awaitility.await("no such chain transfer").during(period).atMost(period.plusSeconds(5)).until(() -> matching(p).isEmpty());
    }

    /** Exactly {@code count} matching events, held for {@code period} (no further one arrives). */
    void countDuring(Predicate<ChainTransferEvent> p, int count, Duration period) {
        Awaitility.await(count + " such chain transfers, no more").during(period).atMost(period.plusSeconds(5))
                .until(() -> matching(p).size() == count);
    }

    /** Waits until {@code count} matching events arrived (or fails), then returns them. */
    List<ChainTransferEvent> await(Predicate<ChainTransferEvent> p, int count, Duration timeout) {
        return Awaitility.await(count + " matching chain transfers").atMost(timeout)
                .until(() -> seen().stream().filter(p).toList(), m -> m.size() >= count);
    }

    private List<ChainTransferEvent> seen() {
        return records.stream().map(TransferEvents::decode).toList();
    }

    private static ChainTransferEvent decode(ConsumerRecord<String, String> r) {
        ChainTransferEvent e = EventCodec.decode(r.value(), ChainTransferEvent.class);
        if (!r.key().equals(e.aggregateId())) {
            throw new AssertionError("record key " + r.key() + " is not the transfer id " + e.aggregateId());
        }
        return e;
    }

    @Override
    public void close() {
        records.close();
    }
}
