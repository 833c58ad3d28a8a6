package dev.agentpay.invoice.messaging;

import dev.agentpay.commons.events.ChainTransferEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.invoice.service.SettlementService;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Consumes {@code chain-transfers}. The returned Uni completes after the effect committed, so the
 * offset is committed only then; a database hiccup is retried with back-off rather than skipped.
 */
@ApplicationScoped
public class ChainTransferConsumer {

    /** Incoming channel of {@code chain-transfers}. */
    public static final String CHANNEL = "chain-transfers-in";

    private static final Logger LOG = Logger.getLogger(ChainTransferConsumer.class);

    @Inject
    SettlementService settlement;

    @Incoming(CHANNEL)
    public Uni<Void> onTransfer(String payload) {
        ChainTransferEvent event;
        try {
            event = EventCodec.decode(payload, ChainTransferEvent.class);
        } catch (IllegalArgumentException e) {
            // A record no version of the watcher could have written: keep the partition moving.
            LOG.errorf("skipping malformed chain-transfers record: %s", e.getMessage());
            return Uni.createFrom().voidItem();
        }
        if (event.eventId() == null || event.aggregateId() == null || event.amount() == null) {
            LOG.errorf("skipping chain-transfers record without id, transfer id or amount");
            return Uni.createFrom().voidItem();
        }
        return settlement.apply(event)
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(10)).atMost(20)
                .replaceWithVoid();
    }
}
