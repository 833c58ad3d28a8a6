package dev.agentpay.anchor.anchoring.messaging;

import dev.agentpay.anchor.anchoring.domain.AnchorIntent;
import dev.agentpay.anchor.anchoring.service.IntentIntake;
import dev.agentpay.commons.consumer.Consumer;
import dev.agentpay.commons.consumer.Consumers;
import dev.agentpay.commons.consumer.PoisonRecordException;
import dev.agentpay.commons.consumer.SourceRecord;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.commons.tracing.KafkaTracingInterceptor;
import dev.agentpay.commons.tracing.Traces;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordBatchMetadata;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Reads {@code mandate-events} in batches and stores one anchor intent per transition after creation
 * ({@link IntentIntake}: the platform's idempotent consumer, so a redelivered event is ignored); offsets
 * are committed only after the insert.
 */
@ApplicationScoped
public class MandateEventsConsumer {

    /** Incoming channel of mandate events. */
    public static final String CHANNEL = "mandate-events-in";

    private static final Logger LOG = Logger.getLogger(MandateEventsConsumer.class);

    @Inject
    IntentIntake intake;

    @Inject
    MeterRegistry registry;

    @Inject
    Consumers consumers;

    static final Consumer DISCIPLINE = new Consumer("anchor-service.mandate-events", Topics.DLT_ANCHOR_MANDATE_EVENTS);

    private Counter rejected;

    @PostConstruct
    void metrics() {
        rejected = registry.counter("anchor.events.rejected");
    }

    @Incoming(CHANNEL)
    public Uni<Void> consume(List<String> payloads, IncomingKafkaRecordBatchMetadata<String, String> batch) {
        List<AnchorIntent> intents = new ArrayList<>(payloads.size());
        List<Uni<Void>> deadLetters = new ArrayList<>();
        // the records, in payload order, carry each event's trace (the poll may mix several requests)
        List<ConsumerRecord<String, String>> records = new ArrayList<>(payloads.size());
        batch.getRecords().forEach(records::add);
        boolean aligned = records.size() == payloads.size();
        for (int i = 0; i < payloads.size(); i++) {
            String json = payloads.get(i);
            try {
                // A record without a trace stays without one (its receipt starts a new trace when relayed):
                // the current context belongs to another record of the poll, not to this event.
                String trace = aligned ? KafkaTracingInterceptor.traceparent(records.get(i).headers()) : Traces.currentTraceparent();
                AnchorIntent.of(EventCodec.decode(json, MandateEvent.class))
                        .map(intent -> intent.withTrace(trace))
                        .ifPresent(intents::add);
            } catch (IllegalArgumentException e) {
                // a malformed event cannot be anchored by retrying: it goes to the dead-letter topic
                rejected.increment();
                SourceRecord source = aligned ? SourceRecord.of(records.get(i)) : SourceRecord.of(null, json);
                deadLetters.add(consumers.deadLetter(DISCIPLINE, source,
                        new PoisonRecordException("mandate event cannot be anchored: " + e.getMessage(), e)));
            }
        }
        Uni<Void> poisoned = deadLetters.isEmpty() ? Uni.createFrom().voidItem()
                : Multi.createFrom().iterable(deadLetters).onItem().transformToUniAndConcatenate(u -> u).collect().last().replaceWithVoid();
        if (intents.isEmpty()) {
            return poisoned;
        }
        // the database being away must not lose events: hold the partition until the insert succeeds
        return poisoned.chain(() -> consumers.untilApplied(DISCIPLINE, () -> intake.store(DISCIPLINE.name(), intents)))
                .replaceWithVoid();
    }
}
