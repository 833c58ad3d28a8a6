package dev.agentpay.mandate.receipt.messaging;

import dev.agentpay.commons.consumer.Consumer;
import dev.agentpay.commons.consumer.Consumers;
import dev.agentpay.commons.consumer.IdempotentConsumer;
import dev.agentpay.commons.consumer.PoisonRecordException;
import dev.agentpay.commons.consumer.SourceRecord;
import dev.agentpay.commons.events.AnchorReceiptEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.commons.sql.Times;
import dev.agentpay.mandate.receipt.service.ReceiptService;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * Records anchor-service's on-chain receipts on the transitions they anchor, with a {@code mandate.anchored}
 * event in the same transaction ({@link ReceiptService#applyAnchor}). Each event applies once
 * (its id and the update commit together); the offset commits only after that transaction. The
 * platform's consumer discipline ({@link Consumers}): a database away is waited out however long, a
 * record that cannot be decoded goes to {@link Topics#DLT_MANDATE_ANCHOR_RECEIPTS}.
 */
@ApplicationScoped
public class AnchorReceiptConsumer {

    /** Incoming channel bound to {@code anchor-receipts}. */
    public static final String CHANNEL = "anchor-receipts-in";
    /** Name under which processed event ids are recorded. */
    public static final String CONSUMER = "mandate-service.anchor-receipts";
    static final Consumer DISCIPLINE = new Consumer(CONSUMER, Topics.DLT_MANDATE_ANCHOR_RECEIPTS);

    private static final Logger LOG = Logger.getLogger(AnchorReceiptConsumer.class);

    @Inject
    Pool pool;

    @Inject
    IdempotentConsumer idempotent;

    @Inject
    ReceiptService receipts;

    @Inject
    Consumers consumers;

    @Incoming(CHANNEL)
    public Uni<Void> onReceipt(String payload, IncomingKafkaRecordMetadata<String, String> meta) {
        SourceRecord source = SourceRecord.of(meta, payload);
        AnchorReceiptEvent event;
        UUID transitionId;
        try {
            event = EventCodec.decode(payload, AnchorReceiptEvent.class);
            transitionId = UUID.fromString(event.transitionId());
            if (event.eventId() == null || event.aggregateId() == null) {
                throw new IllegalArgumentException("no event id or mandate id");
            }
        } catch (RuntimeException e) {
            return consumers.deadLetter(DISCIPLINE, source, new PoisonRecordException("malformed anchor receipt: " + e.getMessage(), e));
        }
        return consumers.apply(DISCIPLINE, source, () -> pool.withTransaction(conn -> idempotent.once(conn, event.eventId(), CONSUMER,
                tx -> receipts.applyAnchor(tx, transitionId, event.aggregateId(), event.txHash(), event.blockNumber(),
                        event.chainId(), event.logIndex(), event.contract(), Times.now()).invoke(n -> {
                            if (n == 0) {
                                LOG.warnf("anchor receipt %s names unknown transition %s of %s", event.eventId(),
                                        event.transitionId(), event.aggregateId());
                            }
                        }))));
    }
}
