package dev.agentpay.discovery.trust.messaging;

import dev.agentpay.commons.consumer.Consumer;
import dev.agentpay.commons.consumer.Consumers;
import dev.agentpay.commons.consumer.PoisonRecordException;
import dev.agentpay.commons.consumer.SourceRecord;
import dev.agentpay.commons.events.AnchorReceiptEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.InvoiceEvent;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.commons.consumer.IdempotentConsumer;
import dev.agentpay.discovery.trust.repository.TrustCounterRepository;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordBatchMetadata;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Keeps the trust-signal counters from the platform's event streams. Each event's effect and its
 * processed mark commit in one transaction ({@link IdempotentConsumer}), so redelivery counts once;
 * the offset commits only after that transaction. The platform's consumer discipline ({@link Consumers}):
 * a database outage is waited out however long (a skipped event would be a lost count); an undecodable
 * payload goes to the consumer's dead-letter topic (it can never succeed and must not block the partition).
 */
@ApplicationScoped
public class TrustEventConsumer {

    public static final String MANDATE_CHANNEL = "trust-mandate-events";
    public static final String ANCHOR_CHANNEL = "trust-anchor-receipts";
    public static final String INVOICE_CHANNEL = "trust-invoice-events";
    static final String CONSUMER = "discovery-trust-signals";
    static final String SIGNED_BY_BOTH = "mandate.signed_by_both";
    /** A mandate of three or more parties fully signed: its DRS receipt is issued then, as at signed_by_both. */
    static final String SIGNED_BY_ALL = "mandate.signed_by_all";

    @Inject
    Pool pool;

    @Inject
    IdempotentConsumer idempotent;

    @Inject
    TrustCounterRepository counters;

    @Inject
    Consumers consumers;

    static final Consumer MANDATES = new Consumer("discovery-trust-mandates", Topics.DLT_DISCOVERY_MANDATE_EVENTS);
    static final Consumer ANCHORS = new Consumer("discovery-trust-anchors", Topics.DLT_DISCOVERY_ANCHOR_RECEIPTS);
    static final Consumer INVOICES = new Consumer("discovery-trust-invoices", Topics.DLT_DISCOVERY_INVOICE_EVENTS);

    /**
     * Mandate events arrive in poll batches and only {@code signed_by_both} and {@code signed_by_all} (a receipt
     * issued) count, so a record whose text does not even contain either word is skipped without decoding (most of the topic: proposals,
     * signatures, completions); the counted ones of a batch share one transaction, in order.
     */
    @Incoming(MANDATE_CHANNEL)
    public Uni<Void> onMandateEvents(List<String> payloads, IncomingKafkaRecordBatchMetadata<String, String> batch) {
        List<ConsumerRecord<String, String>> records = new ArrayList<>(payloads.size());
        batch.getRecords().forEach(records::add);
        boolean aligned = records.size() == payloads.size();
        List<MandateEvent> counted = new ArrayList<>();
        List<Uni<Void>> deadLetters = new ArrayList<>();
        for (int i = 0; i < payloads.size(); i++) {
            String payload = payloads.get(i);
            if (payload == null || !payload.contains("signed_by_both") && !payload.contains("signed_by_all")) {
                continue;
            }
            try {
                MandateEvent e = decode(payload, MandateEvent.class);
                if (SIGNED_BY_BOTH.equals(e.type()) || "signed_by_both".equals(e.toState())
                        || SIGNED_BY_ALL.equals(e.type()) || "signed_by_all".equals(e.toState())) {
                    counted.add(e);
                }
            } catch (PoisonRecordException poison) {
                deadLetters.add(consumers.deadLetter(MANDATES,
                        aligned ? SourceRecord.of(records.get(i)) : SourceRecord.of(null, payload), poison));
            }
        }
        Uni<Void> poisoned = Multi.createFrom().iterable(deadLetters).onItem().transformToUniAndConcatenate(u -> u)
                .collect().last().replaceWithVoid();
        if (counted.isEmpty()) {
            return poisoned;
        }
        return poisoned.chain(() -> consumers.untilApplied(MANDATES, () -> pool.withTransaction(conn -> Multi.createFrom().iterable(counted)
                .onItem().transformToUniAndConcatenate(e -> idempotent.once(conn, e.eventId(), CONSUMER,
                        tx -> counters.drsReceipt(tx, e.aggregateId(), e.eventId(), e.occurredAt())))
                .collect().last()))).replaceWithVoid();
    }

    @Incoming(ANCHOR_CHANNEL)
    public Uni<Void> onAnchorReceipt(String payload, IncomingKafkaRecordMetadata<String, String> meta) {
        SourceRecord source = SourceRecord.of(meta, payload);
        return consumers.apply(ANCHORS, source, () -> {
            AnchorReceiptEvent e = decode(payload, AnchorReceiptEvent.class);
            // the transition id identifies the anchored fact; fall back to the transaction log position
            String key = e.transitionId() != null ? e.transitionId() : e.txHash() + ":" + e.logIndex();
            return once(e.eventId(), tx -> counters.anchored(tx, key, e.aggregateId(), String.valueOf(e.txHash()), e.occurredAt()));
        });
    }

    @Incoming(INVOICE_CHANNEL)
    public Uni<Void> onInvoiceEvent(String payload, IncomingKafkaRecordMetadata<String, String> meta) {
        SourceRecord source = SourceRecord.of(meta, payload);
        return consumers.apply(INVOICES, source, () -> {
            InvoiceEvent e = decode(payload, InvoiceEvent.class);
            if (InvoiceEvent.SETTLED.equals(e.type())) {
                return once(e.eventId(), tx -> counters.settled(tx, e.aggregateId(), e.occurredAt()));
            }
            if (InvoiceEvent.UNSETTLED.equals(e.type())) {
                return once(e.eventId(), tx -> counters.unsettled(tx, e.aggregateId()));
            }
            return Uni.createFrom().voidItem();
        });
    }

    private Uni<Boolean> once(UUID eventId, Function<SqlClient, Uni<?>> effect) {
        return pool.withTransaction(conn -> idempotent.once(conn, eventId, CONSUMER, effect));
    }

    /** Decodes a record; one that does not decode or has no ids can never count: {@link PoisonRecordException}. */
    private static <T extends dev.agentpay.commons.events.DomainEvent> T decode(String payload, Class<T> type) {
        T e;
        try {
            e = EventCodec.decode(payload, type);
        } catch (RuntimeException ex) {
            throw new PoisonRecordException("undecodable " + type.getSimpleName() + ": " + ex.getMessage(), ex);
        }
        if (e.eventId() == null || e.aggregateId() == null) {
            throw new PoisonRecordException(type.getSimpleName() + " without event id or aggregate id");
        }
        return e;
    }
}
