package dev.agentpay.invoice.settlement.messaging;

import dev.agentpay.commons.consumer.Consumer;
import dev.agentpay.commons.consumer.Consumers;
import dev.agentpay.commons.consumer.PoisonRecordException;
import dev.agentpay.commons.consumer.SourceRecord;
import dev.agentpay.commons.events.EscrowEvent;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.invoice.settlement.service.SettlementService;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Consumes {@code escrow-events} (issue 30) for the charges paid from a mandate's escrow: {@code escrow.released} settles
 * the charge's invoice, {@code escrow.rolled_back} takes a release back ({@link SettlementService#applyEscrow}, once per
 * event id). Other types are skipped undecoded. The platform's consumer discipline ({@link Consumers}); a release record
 * no watcher could have written goes to {@link Topics#DLT_INVOICE_ESCROW_EVENTS}.
 */
@ApplicationScoped
public class EscrowReleaseConsumer {

    /** Incoming channel of {@code escrow-events}. */
    public static final String CHANNEL = "escrow-events-in";
    static final Consumer DISCIPLINE = new Consumer(SettlementService.ESCROW_CONSUMER, Topics.DLT_INVOICE_ESCROW_EVENTS);

    @Inject
    SettlementService settlement;

    @Inject
    Consumers consumers;

    @Incoming(CHANNEL)
    public Uni<Void> onEscrowEvent(String payload, IncomingKafkaRecordMetadata<String, String> meta) {
        if (payload == null || !(payload.contains(EscrowEvent.RELEASED) || payload.contains(EscrowEvent.ROLLED_BACK))) {
            return Uni.createFrom().voidItem();
        }
        return consumers.apply(DISCIPLINE, SourceRecord.of(meta, payload), () -> {
            EscrowEvent e = decode(payload);
            if (!EscrowEvent.RELEASED.equals(e.type()) && !EscrowEvent.ROLLED_BACK.equals(e.type())) {
                return Uni.createFrom().voidItem();
            }
            return settlement.applyEscrow(e).replaceWithVoid();
        });
    }

    /** The record's event; poison when it does not decode or a release lacks what crediting it needs. */
    static EscrowEvent decode(String payload) {
        EscrowEvent e = PoisonDecoding.decode(payload, EscrowEvent.class, "escrow event");
        if (e.eventId() == null || e.type() == null) {
            throw new PoisonRecordException("escrow event without id or type");
        }
        if (EscrowEvent.RELEASED.equals(e.type()) && (e.ref() == null || e.amount() == null || !e.amount().matches("[0-9]{1,38}")
                || e.txHash() == null || e.chain() == null || e.logIndex() == null || e.blockNumber() == null)) {
            throw new PoisonRecordException("escrow release without ref, amount, chain or transaction position");
        }
        if (EscrowEvent.ROLLED_BACK.equals(e.type()) && e.rolledBackEventId() == null) {
            throw new PoisonRecordException("escrow rollback without the removed event's id");
        }
        return e;
    }
}
