package dev.agentpay.discovery.trust.service;

import dev.agentpay.commons.consumer.IdempotentConsumer;
import dev.agentpay.commons.events.AnchorReceiptEvent;
import dev.agentpay.commons.events.InvoiceEvent;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.discovery.trust.repository.TrustCounterRepository;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * Counts the platform's events into the trust-signal counters. Each event's effect and its processed mark
 * commit in one transaction ({@link IdempotentConsumer}) that this service opens, so a redelivered event
 * counts once; the consumer ({@code TrustEventConsumer}) decodes and commits offsets only.
 */
@ApplicationScoped
public class TrustEventRecorder {

    /** Name under which processed event ids are recorded. */
    public static final String CONSUMER = "discovery-trust-signals";

    @Inject
    Pool pool;

    @Inject
    IdempotentConsumer idempotent;

    @Inject
    TrustCounterRepository counters;

    /** A poll batch's {@code signed_by_both} events, in order, in one transaction: one DRS receipt each. */
    public Uni<Boolean> drsReceipts(List<MandateEvent> signedByBoth) {
        return pool.withTransaction(conn -> Multi.createFrom().iterable(signedByBoth)
                .onItem().transformToUniAndConcatenate(e -> idempotent.once(conn, e.eventId(), CONSUMER,
                        tx -> counters.drsReceipt(tx, e.aggregateId(), e.eventId(), e.occurredAt())))
                .collect().last());
    }

    /** An anchor receipt: one anchored fact, keyed by its transition (else its transaction log position). */
    public Uni<Boolean> anchored(AnchorReceiptEvent e) {
        String key = e.transitionId() != null ? e.transitionId() : e.txHash() + ":" + e.logIndex();
        return once(e.eventId(), tx -> counters.anchored(tx, key, e.aggregateId(), String.valueOf(e.txHash()), e.occurredAt()));
    }

    /** {@code invoice.settled} counts the invoice, {@code invoice.unsettled} takes it back; other events count nothing. */
    public Uni<Boolean> invoice(InvoiceEvent e) {
        if (InvoiceEvent.SETTLED.equals(e.type())) {
            return once(e.eventId(), tx -> counters.settled(tx, e.aggregateId(), e.occurredAt()));
        }
        if (InvoiceEvent.UNSETTLED.equals(e.type())) {
            return once(e.eventId(), tx -> counters.unsettled(tx, e.aggregateId()));
        }
        return Uni.createFrom().item(false);
    }

    private Uni<Boolean> once(UUID eventId, Function<SqlClient, Uni<?>> effect) {
        return pool.withTransaction(conn -> idempotent.once(conn, eventId, CONSUMER, effect));
    }
}
