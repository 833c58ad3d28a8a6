package dev.agentpay.invoice.settlement.messaging;

import dev.agentpay.commons.consumer.Consumer;
import dev.agentpay.commons.consumer.Consumers;
import dev.agentpay.commons.consumer.PoisonRecordException;
import dev.agentpay.commons.consumer.SourceRecord;
import dev.agentpay.commons.events.ChainTransferEvent;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.invoice.settlement.service.SettlementService;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Consumes {@code chain-transfers}. The returned Uni completes after the effect committed, so the
 * offset is committed only then. The platform's consumer discipline ({@link Consumers}): a database away
 * is waited out however long (never skipped: a skipped transfer is a payment never attributed); a record
 * no watcher could have written goes to {@link Topics#DLT_INVOICE_CHAIN_TRANSFERS}.
 */
@ApplicationScoped
public class ChainTransferConsumer {

    /** Incoming channel of {@code chain-transfers}. */
    public static final String CHANNEL = "chain-transfers-in";
    static final Consumer DISCIPLINE = new Consumer("invoice-service.chain-transfers", Topics.DLT_INVOICE_CHAIN_TRANSFERS);

    @Inject
    SettlementService settlement;

    @Inject
    Consumers consumers;

    @Incoming(CHANNEL)
    public Uni<Void> onTransfer(String payload, IncomingKafkaRecordMetadata<String, String> meta) {
        // a record that is poison (see decode) is dead-lettered by the discipline like one the work finds poison
        return consumers.apply(DISCIPLINE, SourceRecord.of(meta, payload), () -> settlement.apply(decode(payload)));
    }

    /** The transfer a record carries; poison when it does not decode or lacks its event id, transfer id or amount. */
    static ChainTransferEvent decode(String payload) {
        ChainTransferEvent event = PoisonDecoding.decode(payload, ChainTransferEvent.class, "chain transfer");
        if (event.eventId() == null || event.aggregateId() == null || event.amount() == null) {
            throw new PoisonRecordException("chain transfer without id, transfer id or amount");
        }
        return event;
    }
}
