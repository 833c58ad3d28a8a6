package dev.agentpay.invoice.settlement.service;

import dev.agentpay.commons.chains.Chain;
import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.commons.events.ChainTransferEvent;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.InvoiceEvent;
import dev.agentpay.commons.consumer.IdempotentConsumer;
import dev.agentpay.commons.outbox.Outbox;
import dev.agentpay.invoice.invoices.domain.Invoice;
import dev.agentpay.invoice.invoices.domain.InvoiceStatus;
import dev.agentpay.invoice.invoices.repository.InvoiceRepository;
import dev.agentpay.invoice.settlement.repository.TransferRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.jboss.logging.Logger;
import dev.agentpay.invoice.invoices.service.InvoiceExpiry;
import dev.agentpay.invoice.invoices.service.InvoiceService;

/**
 * Applies watcher reports to invoices, each in one transaction with its dedupe mark and its outbox
 * events. EVM transfers are attributed by destination address only (each invoice has its own); Solana
 * transfers by memo. Payments add up: partial, over and late payments are credited and reported (see
 * README "Matching" and "Partial, over and late payments").
 */
@ApplicationScoped
public class SettlementService {

    /** Consumer name in the idempotency ledger. */
    public static final String CONSUMER = "invoice-service.settlement";

    /** Why a transfer settled nothing (stored with it for the operator). */
    public static final String WRONG_CHAIN = "unknown_chain";
    public static final String WRONG_RECIPIENT = "not_our_payment_address";
    public static final String NOT_AN_INVOICE_ADDRESS = "not_an_invoice_address";
    public static final String WRONG_TOKEN = "not_usdc";
    public static final String NO_INVOICE_FOR_MEMO = "no_invoice_for_memo";

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
    InvoiceExpiry expiry;

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
            if (!sameAddress(entry, entry.usdcAddress(), e.token())) {
                return unmatched(c, e, WRONG_TOKEN, now);
            }
            return chain.get().kind() == Chain.Kind.EVM ? byAddress(c, e, now) : byMemo(c, entry, e, now);
        });
    }

    /** EVM: the destination is an invoice's own deposit address, or the transfer pays nothing. */
    private Uni<Void> byAddress(SqlClient c, ChainTransferEvent e, Instant now) {
        if (e.to() == null) {
            return unmatched(c, e, NOT_AN_INVOICE_ADDRESS, now);
        }
        return invoices.lockByDepositAddress(c, e.chain(), e.to())
                .flatMap(inv -> inv == null ? unmatched(c, e, NOT_AN_INVOICE_ADDRESS, now) : credit(c, e, inv, now));
    }

    private Uni<Void> byMemo(SqlClient c, ChainTable.Entry entry, ChainTransferEvent e, Instant now) {
        if (entry.paymentAddress().isEmpty() || !sameAddress(entry, entry.paymentAddress().get(), e.to())) {
            return unmatched(c, e, WRONG_RECIPIENT, now);
        }
        String memo = e.memo() == null ? "" : e.memo().trim().toLowerCase(Locale.ROOT);
        return invoices.lockByMemo(c, e.chain(), memo)
                .flatMap(inv -> inv == null ? unmatched(c, e, NO_INVOICE_FOR_MEMO, now) : credit(c, e, inv, now));
    }

    /**
     * Adds the transfer to the invoice's received total. PENDING: settles when the total reaches the
     * amount ({@code invoice.settled}, plus {@code invoice.overpaid} beyond it), else
     * {@code invoice.partially_paid}. SETTLED: {@code invoice.overpaid}. EXPIRED: {@code invoice.paid_late}
     * (the invoice stays EXPIRED; the merchant decides).
     */
    private Uni<Void> credit(SqlClient c, ChainTransferEvent e, Invoice inv, Instant now) {
        return transfers.countedForInvoice(c, inv.id(), e.txHash()).flatMap(counted -> {
            if (counted) {
                // paid through x402: already counted when the facilitator settled it; recorded, not counted twice
                // (invoice_id left empty so that a retraction takes nothing back either)
                LOG.infof("transfer %s to invoice %s was paid through x402 and already counted", e.aggregateId(), inv.id());
                return transfers.upsert(c, e, "CREDITED", "paid_through_x402", null, now);
            }
            return creditNew(c, e, inv, now);
        });
    }

    /**
     * A payment through x402 ({@code POST /v1/invoices/{id}/pay}) that the facilitator settled to the
     * invoice's own address: counted now (settlementSource {@code x402}, txHash the settlement), in the
     * caller's transaction, unless the watcher already reported that transaction.
     */
    public Uni<Void> paidThroughX402(SqlClient c, UUID invoiceId, String txHash, String payer, BigInteger amount, Instant now) {
        return invoices.lock(c, invoiceId).flatMap(inv -> {
            if (inv == null) {
                return Uni.createFrom().voidItem();
            }
            return transfers.countedForInvoice(c, inv.id(), txHash).flatMap(counted -> {
                if (counted) {
                    return Uni.createFrom().voidItem();
                }
                ChainTransferEvent e = new ChainTransferEvent(EventHeader.of(ChainTransferEvent.DETECTED, "x402:" + txHash, null, now,
                        ChainTransferEvent.SCHEMA_VERSION), inv.chain(), txHash, -1, 0L, null, payer, inv.paymentAddress(), amount,
                        inv.usdcAddress(), null, X402_SOURCE);
                return creditNew(c, e, inv, now);
            });
        });
    }

    /** The settlementSource of invoices paid through x402. */
    public static final String X402_SOURCE = "x402";

    /** The settlementSource of charge invoices paid from their mandate's escrow (issue 30). */
    public static final String ESCROW_SOURCE = "escrow";

    /** Consumer name of the escrow-events effects in the idempotency ledger. */
    public static final String ESCROW_CONSUMER = "invoice-service.escrow-events";

    /**
     * Applies one {@code escrow-events} record once (issue 30): {@code escrow.released} credits the charge invoice whose
     * escrow ref it carries with the released amount (settling it, settlementSource {@code escrow}, txHash the release),
     * recorded as a transfer {@code escrow:<event id>} from the escrow contract; {@code escrow.rolled_back} of such a
     * release takes the credit back as a reorg does a transfer's. Everything else, and a release of no invoice, changes
     * nothing. Accounting is the transfers' own: a release of another amount than the invoice's is a partial or over payment.
     */
    public Uni<Boolean> applyEscrow(dev.agentpay.commons.events.EscrowEvent e) {
        return pool.withTransaction(tx -> idempotent.once(tx, e.eventId(), ESCROW_CONSUMER, c -> {
            Instant now = Instant.now();
            if (dev.agentpay.commons.events.EscrowEvent.ROLLED_BACK.equals(e.type())) {
                ChainTransferEvent back = new ChainTransferEvent(EventHeader.of(ChainTransferEvent.RETRACTED,
                        escrowTransferId(e.rolledBackEventId()), null, now, ChainTransferEvent.SCHEMA_VERSION), e.chain(), e.txHash(),
                        e.logIndex() == null ? -1 : e.logIndex(), 0L, null, null, null, BigInteger.ZERO, null, null, ESCROW_SOURCE);
                return retracted(c, back);
            }
            if (!dev.agentpay.commons.events.EscrowEvent.RELEASED.equals(e.type()) || e.ref() == null) {
                return Uni.createFrom().voidItem();
            }
            return invoices.lockByEscrowRef(c, e.ref().toLowerCase(Locale.ROOT)).flatMap(inv -> {
                if (inv == null) {
                    LOG.infof("escrow release %s (ref %s) pays no invoice of this service", e.txHash(), e.ref());
                    return Uni.createFrom().voidItem();
                }
                ChainTransferEvent credit = new ChainTransferEvent(EventHeader.of(ChainTransferEvent.DETECTED,
                        escrowTransferId(e.eventId().toString()), null, now, ChainTransferEvent.SCHEMA_VERSION), e.chain(), e.txHash(),
                        e.logIndex(), e.blockNumber(), e.blockHash(), e.contract(), inv.paymentAddress(), new BigInteger(e.amount()),
                        inv.usdcAddress(), null, ESCROW_SOURCE);
                return transfers.lock(c, credit.aggregateId()).flatMap(prev -> prev != null && !"RETRACTED".equals(prev.status())
                        ? Uni.createFrom().voidItem()
                        : creditNew(c, credit, inv, now));
            });
        }));
    }

    /** The transfer id under which an escrow release is recorded: {@code escrow:<its escrow-events event id>}. */
    static String escrowTransferId(String escrowEventId) {
        return "escrow:" + escrowEventId;
    }

    private Uni<Void> creditNew(SqlClient c, ChainTransferEvent e, Invoice inv, Instant now) {
        // a transfer applied after the deadline is late even if the expiry sweep has not run yet; an x402
        // payment was claimed before the deadline (the sweep leaves its invoice alone) and counts on time
        if (inv.status() == InvoiceStatus.PENDING && inv.dueToExpire(now) && !X402_SOURCE.equals(e.source())) {
            return expiry.expire(c, inv, now).flatMap(expired -> creditCounted(c, e, expired, now));
        }
        return creditCounted(c, e, inv, now);
    }

    private Uni<Void> creditCounted(SqlClient c, ChainTransferEvent e, Invoice inv, Instant now) {
        BigInteger total = inv.paidAtomic().add(e.amount());
        boolean settles = inv.status() == InvoiceStatus.PENDING && total.compareTo(inv.payableAtomic()) >= 0;
        Uni<Void> apply = invoices.credit(c, inv.id(), e.amount(), now);
        if (settles) {
            String source = e.source() == null ? Chain.of(e.chain()).orElseThrow().settlementSource() : e.source();
            apply = apply.call(() -> invoices.markSettled(c, inv.id(), e.txHash(),
                    X402_SOURCE.equals(e.source()) ? null : Long.valueOf(e.block()), source, e.aggregateId(), e.from(), now));
        }
        return apply
                .call(() -> X402_SOURCE.equals(e.source())
                        ? transfers.recordX402(c, e.chain(), e.txHash(), e.from(), e.to(), e.token(), e.amount(),
                                settles ? "SETTLED" : "CREDITED", inv.id(), now)
                        : transfers.upsert(c, e, settles ? "SETTLED" : "CREDITED", null, inv.id(), now))
                .call(() -> invoices.lock(c, inv.id()).flatMap(after -> {
                    Uni<Void> events = Uni.createFrom().voidItem();
                    for (String type : eventsFor(inv.status(), settles, after)) {
                        events = events.call(() -> outbox.append(c, InvoiceService.event(type, after, now)));
                    }
                    return events;
                }))
                .invoke(() -> LOG.infof("invoice %s %s by %s (%s atomic units; received %s of %s)", inv.id(),
                        settles ? "settled" : inv.status() == InvoiceStatus.EXPIRED ? "credited (paid late)" : "credited", e.aggregateId(), e.amount(), total, inv.payableAtomic()));
    }

    static List<String> eventsFor(InvoiceStatus before, boolean settles, Invoice after) {
        boolean over = after.paidAtomic().compareTo(after.payableAtomic()) > 0;
        return switch (before) {
            case PENDING -> settles
                    ? (over ? List.of(InvoiceEvent.SETTLED, InvoiceEvent.OVERPAID) : List.of(InvoiceEvent.SETTLED))
                    : List.of(InvoiceEvent.PARTIALLY_PAID);
            case SETTLED -> List.of(InvoiceEvent.OVERPAID);
            case EXPIRED -> List.of(InvoiceEvent.PAID_LATE);
        };
    }

    private Uni<Void> unmatched(SqlClient c, ChainTransferEvent e, String reason, Instant now) {
        LOG.infof("transfer %s of %s atomic units to %s matched no invoice: %s", e.aggregateId(), e.amount(), e.to(), reason);
        return transfers.upsert(c, e, "UNMATCHED", reason, null, now);
    }

    private Uni<Void> retracted(SqlClient c, ChainTransferEvent e) {
        Instant now = Instant.now();
        return transfers.lock(c, e.aggregateId()).flatMap(prev -> {
            if (prev == null || "RETRACTED".equals(prev.status())) {
                return Uni.createFrom().voidItem();
            }
            Uni<Void> undo = prev.invoiceId() != null
                    ? debit(c, prev.invoiceId(), prev.amount(), e.aggregateId(), now)
                    : Uni.createFrom().voidItem();
            return undo.call(() -> transfers.retract(c, e.aggregateId(), now));
        });
    }

    /** A reorg took a credited transfer away: the total shrinks; a SETTLED invoice now short of its amount is PENDING again. */
    private Uni<Void> debit(SqlClient c, UUID invoiceId, BigInteger amount, String transferId, Instant now) {
        return invoices.lock(c, invoiceId).flatMap(inv -> {
            if (inv == null) {
                return Uni.createFrom().voidItem();
            }
            BigInteger total = inv.paidAtomic().subtract(amount);
            boolean unsettles = inv.status() == InvoiceStatus.SETTLED && total.compareTo(inv.payableAtomic()) < 0;
            Uni<Void> apply = invoices.credit(c, invoiceId, amount.negate(), now);
            if (!unsettles) {
                return apply.invoke(() -> LOG.warnf("invoice %s: transfer %s retracted by a reorg; received now %s", invoiceId, transferId, total));
            }
            return apply.call(() -> invoices.markPending(c, invoiceId, now))
                    .call(() -> invoices.lock(c, invoiceId)
                            .flatMap(back -> outbox.append(c, InvoiceService.event(InvoiceEvent.UNSETTLED, back, now))))
                    .invoke(() -> LOG.warnf("invoice %s back to PENDING: transfer %s retracted by a reorg", invoiceId, transferId));
        });
    }

    private static boolean sameAddress(ChainTable.Entry entry, String a, String b) {
        if (a == null || b == null) {
            return false;
        }
        // EVM addresses are hex (case only encodes a checksum); Solana base58 is case-sensitive.
        return entry.chain().kind() == Chain.Kind.EVM ? a.equalsIgnoreCase(b) : a.equals(b);
    }

    /** Transfers to the seller wallets that settled no invoice, newest first (the operator's view). */
    public Uni<java.util.List<dev.agentpay.invoice.settlement.domain.UnmatchedTransfer>> unmatched(int limit) {
        return transfers.unmatched(pool, limit);
    }
}
