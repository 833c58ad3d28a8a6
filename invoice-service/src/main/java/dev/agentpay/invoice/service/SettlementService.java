package dev.agentpay.invoice.service;

import dev.agentpay.commons.chains.Chain;
import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.commons.events.ChainTransferEvent;
import dev.agentpay.commons.events.InvoiceEvent;
import dev.agentpay.commons.outbox.IdempotentConsumer;
import dev.agentpay.commons.outbox.Outbox;
import dev.agentpay.invoice.domain.Invoice;
import dev.agentpay.invoice.domain.InvoiceStatus;
import dev.agentpay.invoice.domain.Usdc;
import dev.agentpay.invoice.repository.InvoiceRepository;
import dev.agentpay.invoice.repository.TransferRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Applies watcher reports to invoices, each in one transaction with its dedupe mark and its outbox
 * event. EVM transfers bind by exact payable amount; Solana transfers by memo (see README "Matching").
 */
@ApplicationScoped
public class SettlementService {

    /** Consumer name in the idempotency ledger. */
    public static final String CONSUMER = "invoice-service.settlement";

    /** Why a transfer settled nothing (stored with it for the operator). */
    public static final String WRONG_CHAIN = "unknown_chain";
    public static final String WRONG_RECIPIENT = "not_our_payment_address";
    public static final String WRONG_TOKEN = "not_usdc";
    public static final String NO_INVOICE_FOR_AMOUNT = "no_pending_invoice_for_amount";
    public static final String NO_INVOICE_FOR_MEMO = "no_invoice_for_memo";
    public static final String ALREADY_SETTLED = "invoice_already_settled";
    public static final String UNDERPAID = "underpaid";

    private static final Logger LOG = Logger.getLogger(SettlementService.class);

    @Inject
    Pool pool;

    @Inject
    IdempotentConsumer idempotent;

    @Inject
    InvoiceRepository invoices;

    @Inject
    TransferRepository transfers;

    @Inject
    ChainTable chains;

    @Inject
    Outbox outbox;

    @Inject
    InvoiceService invoiceService;

    /** Applies one event once; emits whether it changed anything (false for a duplicate delivery). */
    public Uni<Boolean> apply(ChainTransferEvent e) {
        return pool.withTransaction(tx -> idempotent.once(tx, e.eventId(), CONSUMER, c -> switch (e.type()) {
            case ChainTransferEvent.DETECTED -> detected(c, e);
            case ChainTransferEvent.RETRACTED -> retracted(c, e);
            default -> {
                LOG.warnf("ignoring chain transfer event %s of unknown type %s", e.eventId(), e.type());
                yield Uni.createFrom().voidItem();
            }
        }));
    }

    private Uni<Void> detected(SqlClient c, ChainTransferEvent e) {
        Instant now = Instant.now();
        return transfers.lock(c, e.aggregateId()).flatMap(prev -> {
            if (prev != null && !"RETRACTED".equals(prev.status())) {
                return Uni.createFrom().voidItem(); // the same transfer reported again: already applied
            }
            Optional<Chain> chain = Chain.of(e.chain());
            if (chain.isEmpty()) {
                return unmatched(c, e, WRONG_CHAIN, now);
            }
            ChainTable.Entry entry = chains.get(chain.get());
            if (entry.paymentAddress().isEmpty() || !sameAddress(entry, entry.paymentAddress().get(), e.to())) {
                return unmatched(c, e, WRONG_RECIPIENT, now);
            }
            if (!sameAddress(entry, entry.usdcAddress(), e.token())) {
                return unmatched(c, e, WRONG_TOKEN, now);
            }
            return chain.get().kind() == Chain.Kind.EVM ? byAmount(c, e, now) : byMemo(c, e, now);
        });
    }

    private Uni<Void> byAmount(SqlClient c, ChainTransferEvent e, Instant now) {
        return invoices.lockHolder(c, e.chain(), e.amount())
                .flatMap(id -> id == null ? Uni.createFrom().item((Invoice) null) : invoices.lock(c, id))
                .flatMap(inv -> inv == null || inv.status() != InvoiceStatus.PENDING
                        ? unmatched(c, e, NO_INVOICE_FOR_AMOUNT, now)
                        : settle(c, e, inv, now));
    }

    private Uni<Void> byMemo(SqlClient c, ChainTransferEvent e, Instant now) {
        String memo = e.memo() == null ? "" : e.memo().trim().toLowerCase(Locale.ROOT);
        return invoices.lockByMemo(c, e.chain(), memo).flatMap(inv -> {
            if (inv == null) {
                return unmatched(c, e, NO_INVOICE_FOR_MEMO, now);
            }
            if (inv.status() != InvoiceStatus.PENDING) {
                return unmatched(c, e, ALREADY_SETTLED, now);
            }
            if (e.amount().compareTo(inv.payableAtomic()) < 0) {
                return unmatched(c, e, UNDERPAID, now);
            }
            return settle(c, e, inv, now);
        });
    }

    private Uni<Void> settle(SqlClient c, ChainTransferEvent e, Invoice inv, Instant now) {
        return invoices.markSettled(c, inv.id(), e.txHash(), e.block(), e.source() == null
                                ? Chain.of(e.chain()).orElseThrow().settlementSource() : e.source(),
                        e.aggregateId(), e.amount(), e.from(), now)
                .call(() -> invoices.release(c, inv.id(), now))
                .call(() -> transfers.upsert(c, e, "SETTLED", null, inv.id(), now))
                .call(() -> invoices.lock(c, inv.id())
                        .flatMap(settled -> outbox.append(c, InvoiceService.event(InvoiceEvent.SETTLED, settled, now))))
                .invoke(() -> LOG.infof("invoice %s settled by %s", inv.id(), e.aggregateId()));
    }

    private Uni<Void> unmatched(SqlClient c, ChainTransferEvent e, String reason, Instant now) {
        LOG.infof("transfer %s of %s atomic units matched no invoice: %s", e.aggregateId(), e.amount(), reason);
        return transfers.upsert(c, e, "UNMATCHED", reason, null, now);
    }

    private Uni<Void> retracted(SqlClient c, ChainTransferEvent e) {
        Instant now = Instant.now();
        return transfers.lock(c, e.aggregateId()).flatMap(prev -> {
            if (prev == null || "RETRACTED".equals(prev.status())) {
                return Uni.createFrom().voidItem();
            }
            Uni<Void> undo = "SETTLED".equals(prev.status()) && prev.invoiceId() != null
                    ? unsettle(c, prev.invoiceId(), e.aggregateId(), now)
                    : Uni.createFrom().voidItem();
            return undo.call(() -> transfers.retract(c, e.aggregateId(), now));
        });
    }

    private Uni<Void> unsettle(SqlClient c, UUID invoiceId, String transferId, Instant now) {
        return invoices.lock(c, invoiceId).flatMap(inv -> {
            if (inv == null || inv.status() != InvoiceStatus.SETTLED || !transferId.equals(inv.settlementTransferId())) {
                return Uni.createFrom().voidItem();
            }
            Uni<BigInteger> payable = Chain.of(inv.chain()).orElseThrow().kind() == Chain.Kind.SOLANA
                    ? Uni.createFrom().item(inv.payableAtomic())
                    : invoices.reclaim(c, inv.id(), inv.chain(), inv.payableAtomic()).flatMap(kept -> kept
                            ? Uni.createFrom().item(inv.payableAtomic())
                            : invoiceService.payable(c, chains.get(Chain.of(inv.chain()).orElseThrow()),
                                    base(inv), inv.id()));
            return payable.flatMap(p -> invoices.markPending(c, inv.id(), p, now))
                    .call(() -> invoices.lock(c, inv.id())
                            .flatMap(back -> outbox.append(c, InvoiceService.event(InvoiceEvent.UNSETTLED, back, now))))
                    .invoke(() -> LOG.warnf("invoice %s back to PENDING: transfer %s retracted by a reorg", inv.id(), transferId));
        });
    }

    private static BigInteger base(Invoice inv) {
        return Usdc.toAtomic(inv.amount());
    }

    private static boolean sameAddress(ChainTable.Entry entry, String a, String b) {
        if (a == null || b == null) {
            return false;
        }
        // EVM addresses are hex (case only encodes a checksum); Solana base58 is case-sensitive.
        return entry.chain().kind() == Chain.Kind.EVM ? a.equalsIgnoreCase(b) : a.equals(b);
    }
}
