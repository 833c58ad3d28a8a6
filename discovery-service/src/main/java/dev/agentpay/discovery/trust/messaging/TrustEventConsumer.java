package dev.agentpay.discovery.trust.messaging;

import dev.agentpay.commons.events.AnchorReceiptEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.InvoiceEvent;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.commons.outbox.IdempotentConsumer;
import dev.agentpay.discovery.trust.repository.TrustCounterRepository;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Keeps the trust-signal counters from the platform's event streams. Each event's effect and its
 * processed mark commit in one transaction ({@link IdempotentConsumer}), so redelivery counts once;
 * the offset commits only after that transaction. A database outage is retried with back-off rather
 * than skipped (a skipped event would be a lost count); an undecodable payload is logged and skipped
 * (it can never succeed and must not block the partition).
 */
@ApplicationScoped
public class TrustEventConsumer {

    public static final String MANDATE_CHANNEL = "trust-mandate-events";
    public static final String ANCHOR_CHANNEL = "trust-anchor-receipts";
    public static final String INVOICE_CHANNEL = "trust-invoice-events";
    static final String CONSUMER = "discovery-trust-signals";
    static final String SIGNED_BY_BOTH = "mandate.signed_by_both";

    private static final Logger LOG = Logger.getLogger(TrustEventConsumer.class);

    @Inject
    Pool pool;

    @Inject
    IdempotentConsumer idempotent;

    @Inject
    TrustCounterRepository counters;

    /**
     * Mandate events arrive in poll batches and only {@code signed_by_both} counts, so a record whose text
     * does not even contain that word is skipped without decoding (most of the topic: proposals,
     * signatures, completions); the counted ones of a batch share one transaction, in order.
     */
    @Incoming(MANDATE_CHANNEL)
    public Uni<Void> onMandateEvents(List<String> payloads) {
        List<MandateEvent> counted = new ArrayList<>();
        for (String payload : payloads) {
            if (payload == null || !payload.contains("signed_by_both")) {
                continue;
            }
            MandateEvent e = decode(payload, MandateEvent.class);
            if (e != null && (SIGNED_BY_BOTH.equals(e.type()) || "signed_by_both".equals(e.toState()))) {
                counted.add(e);
            }
        }
        if (counted.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return retried(pool.withTransaction(conn -> Multi.createFrom().iterable(counted)
                .onItem().transformToUniAndConcatenate(e -> idempotent.once(conn, e.eventId(), CONSUMER,
                        tx -> counters.drsReceipt(tx, e.aggregateId(), e.eventId(), e.occurredAt())))
                .collect().last()), counted.size() + " signed_by_both event(s)");
    }

    @Incoming(ANCHOR_CHANNEL)
    public Uni<Void> onAnchorReceipt(String payload) {
        AnchorReceiptEvent e = decode(payload, AnchorReceiptEvent.class);
        if (e == null) {
            return Uni.createFrom().voidItem();
        }
        // the transition id identifies the anchored fact; fall back to the transaction log position
        String key = e.transitionId() != null ? e.transitionId() : e.txHash() + ":" + e.logIndex();
        return once(e.eventId(), tx -> counters.anchored(tx, key, e.aggregateId(), String.valueOf(e.txHash()), e.occurredAt()));
    }

    @Incoming(INVOICE_CHANNEL)
    public Uni<Void> onInvoiceEvent(String payload) {
        InvoiceEvent e = decode(payload, InvoiceEvent.class);
        if (e == null) {
            return Uni.createFrom().voidItem();
        }
        if (InvoiceEvent.SETTLED.equals(e.type())) {
            return once(e.eventId(), tx -> counters.settled(tx, e.aggregateId(), e.occurredAt()));
        }
        if (InvoiceEvent.UNSETTLED.equals(e.type())) {
            return once(e.eventId(), tx -> counters.unsettled(tx, e.aggregateId()));
        }
        return Uni.createFrom().voidItem();
    }

    private Uni<Void> once(UUID eventId, Function<SqlClient, Uni<?>> effect) {
        return retried(pool.withTransaction(conn -> idempotent.once(conn, eventId, CONSUMER, effect)), "event " + eventId);
    }

    /** A database outage is waited out (the offset does not move), never skipped. */
    private static Uni<Void> retried(Uni<?> work, String what) {
        return work
                .onFailure().invoke(f -> LOG.warnf("trust counter update for %s failed, retrying: %s", what, f.getMessage()))
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(30)).indefinitely()
                .replaceWithVoid();
    }

    private static <T extends dev.agentpay.commons.events.DomainEvent> T decode(String payload, Class<T> type) {
        try {
            T e = EventCodec.decode(payload, type);
            if (e.eventId() == null || e.aggregateId() == null) {
                LOG.warnf("skipping %s without event id or aggregate id", type.getSimpleName());
                return null;
            }
            return e;
        } catch (RuntimeException ex) {
            LOG.warnf("skipping undecodable %s: %s", type.getSimpleName(), ex.getMessage());
            return null;
        }
    }
}
