package dev.agentpay.settlement.deposit.messaging;

import dev.agentpay.commons.chains.Chain;
import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.commons.consumer.Consumer;
import dev.agentpay.commons.consumer.Consumers;
import dev.agentpay.commons.consumer.PoisonRecordException;
import dev.agentpay.commons.consumer.SourceRecord;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.InvoiceEvent;
import dev.agentpay.commons.events.InvoiceView;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.settlement.deposit.domain.NewDeposit;
import dev.agentpay.settlement.watcher.service.WatcherLedger;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.api.IncomingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Learns the invoices' own deposit addresses from {@code invoice.created} on {@code invoice-events}
 * (the watcher never reads invoice-service's database). Registering is an insert-if-absent keyed by
 * (chain, address), so a redelivered event changes nothing; the offset commits after the insert.
 */
@ApplicationScoped
public class InvoiceCreatedConsumer {

    /** Incoming channel of {@code invoice-events}. */
    public static final String CHANNEL = "deposit-addresses-in";

    @Inject
    WatcherLedger ledger;

    @Inject
    ChainTable chains;

    @Inject
    Consumers consumers;

    static final Consumer DISCIPLINE = new Consumer("settlement-watcher-deposits", Topics.DLT_WATCHER_INVOICE_EVENTS);

    @Incoming(CHANNEL)
    public Uni<Void> onInvoiceEvent(String payload, IncomingKafkaRecordMetadata<String, String> meta) {
        SourceRecord source = SourceRecord.of(meta, payload);
        Optional<NewDeposit> d;
        try {
            d = deposit(EventCodec.decode(payload, InvoiceEvent.class));
        } catch (RuntimeException e) {
            // A record no version of invoice-service could have written: set aside with its reason.
            return consumers.deadLetter(DISCIPLINE, source, new PoisonRecordException("malformed invoice-events record: " + e.getMessage(), e));
        }
        if (d.isEmpty() || isSellerWallet(d.get())) {
            // invoices created before per-invoice addresses announced the shared seller wallet: never watched
            return Uni.createFrom().voidItem();
        }
        // a database away is waited out however long: a deposit address never registered is a payment never seen
        return consumers.apply(DISCIPLINE, source, () -> ledger.register(d.get()));
    }

    private boolean isSellerWallet(NewDeposit d) {
        return chains.get(Chain.of(d.chain()).orElseThrow()).paymentAddress().map(a -> a.equalsIgnoreCase(d.address())).orElse(false);
    }

    /** The deposit address an {@code invoice.created} event announces, if it is one (EVM invoices only). */
    static Optional<NewDeposit> deposit(InvoiceEvent e) {
        InvoiceView invoice = InvoiceEvent.CREATED.equals(e.type()) ? e.view() : null;
        if (invoice == null || invoice.paymentDetails() == null) {
            return Optional.empty();
        }
        Optional<Chain> chain = Chain.of(invoice.paymentDetails().chain());
        String address = java.util.Objects.requireNonNullElse(invoice.paymentDetails().paymentAddress(), "");
        if (chain.isEmpty() || chain.get().kind() != Chain.Kind.EVM || !address.matches("0x[0-9a-fA-F]{40}")) {
            return Optional.empty();
        }
        UUID id = UUID.fromString(java.util.Objects.requireNonNullElse(invoice.id(), e.aggregateId()));
        String created = invoice.createdAt();
        return Optional.of(new NewDeposit(chain.get().value(), address.toLowerCase(java.util.Locale.ROOT), id,
                created == null ? e.occurredAt() : Instant.parse(created)));
    }
}
