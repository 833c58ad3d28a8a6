package dev.agentpay.mandate.messaging;

import dev.agentpay.commons.events.AnchorReceiptEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.outbox.IdempotentConsumer;
import dev.agentpay.mandate.repository.MandateRepository;
import dev.agentpay.mandate.repository.Times;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Records anchor-service's on-chain receipts on the transitions they anchor. Each event applies once
 * (its id and the update commit together); the offset commits only after that transaction.
 */
@ApplicationScoped
public class AnchorReceiptConsumer {

    /** Incoming channel bound to {@code anchor-receipts}. */
    public static final String CHANNEL = "anchor-receipts-in";
    /** Name under which processed event ids are recorded. */
    public static final String CONSUMER = "mandate-service.anchor-receipts";

    private static final Logger LOG = Logger.getLogger(AnchorReceiptConsumer.class);

    @Inject
    Pool pool;

    @Inject
    IdempotentConsumer idempotent;

    @Inject
    MandateRepository mandates;

    @Incoming(CHANNEL)
    public Uni<Void> onReceipt(String payload) {
        AnchorReceiptEvent event;
        UUID transitionId;
        try {
            event = EventCodec.decode(payload, AnchorReceiptEvent.class);
            transitionId = UUID.fromString(event.transitionId());
        } catch (RuntimeException e) {
            // a malformed record can never succeed; retrying would block the partition forever
            LOG.warnf("skipping malformed anchor receipt: %s", e.getMessage());
            return Uni.createFrom().voidItem();
        }
        return pool.withTransaction(conn -> idempotent.once(conn, event.eventId(), CONSUMER,
                        tx -> mandates.anchor(tx, transitionId, event.aggregateId(), event.txHash(), event.blockNumber(),
                                event.chainId(), event.logIndex(), event.contract(), Times.now()).invoke(n -> {
                                    if (n == 0) {
                                        LOG.warnf("anchor receipt %s names unknown transition %s of %s", event.eventId(),
                                                event.transitionId(), event.aggregateId());
                                    }
                                })))
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10)).atMost(30)
                .replaceWithVoid();
    }
}
