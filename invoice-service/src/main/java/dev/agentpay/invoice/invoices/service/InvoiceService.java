package dev.agentpay.invoice.invoices.service;

import dev.agentpay.commons.chains.Chain;
import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.InvoiceEvent;
import dev.agentpay.commons.outbox.Outbox;
import dev.agentpay.commons.rest.KeysetCursor;
import dev.agentpay.commons.rest.PageLimit;
import dev.agentpay.invoice.config.InvoiceConfig;
import dev.agentpay.invoice.deposit.domain.DepositAddress;
import dev.agentpay.invoice.invoices.domain.Invoice;
import dev.agentpay.invoice.invoices.domain.InvoiceStatus;
import dev.agentpay.invoice.invoices.domain.InvoiceView;
import dev.agentpay.invoice.invoices.domain.NewInvoice;
import dev.agentpay.invoice.domain.Page;
import dev.agentpay.invoice.domain.Usdc;
import dev.agentpay.invoice.invoices.repository.InvoiceRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Creating and reading invoices; every state change commits with its outbox event. */
@ApplicationScoped
public class InvoiceService {

    /** The kind of the cursors of the invoice list ({@link KeysetCursor}), positioned by invoice number. */
    static final char CURSOR_KIND = 'n';

    @Inject
    Pool pool;

    @Inject
    InvoiceRepository invoices;

    @Inject
    ChainTable chains;

    @Inject
    Outbox outbox;

    @Inject
    InvoiceConfig config;

    public Uni<InvoiceView> create(String partnerId, NewInvoice req) {
        if (!chains.get(req.chain()).acceptsInvoices()) {
            throw notConfigured(req.chain());
        }
        return pool.withTransaction(tx -> create(tx, partnerId, req));
    }

    /**
     * Creates an invoice inside the caller's transaction (x402: the invoice commits together with the
     * payment that bought it). Same rules and event as {@link #create(String, NewInvoice)}.
     */
    public Uni<InvoiceView> create(SqlClient tx, String partnerId, NewInvoice req) {
        return create(tx, partnerId, req, null, null);
    }

    /** What {@link #invoiceForCharge} answered: the invoice, and whether this call created it. */
    public record ChargeInvoice(InvoiceView invoice, boolean created) {
    }

    /**
     * The invoice of a charge against a mandate's budget (issue 28), created on the first call and returned as it
     * is on every later one (same charge id), so mandate-service can repeat the call after a crash or a time-out
     * without ever making a second invoice. The calls for one charge are serialized by an advisory lock on its id.
     * A repeat naming another partner, mandate or amount is 409 {@code charge_invoice_conflict}.
     */
    public Uni<ChargeInvoice> invoiceForCharge(String chargeId, String partnerId, String mandateId, NewInvoice req) {
        return pool.withTransaction(tx -> invoices.lockCharge(tx, chargeId).flatMap(v -> invoices.findByCharge(tx, chargeId))
                .flatMap(existing -> {
                    if (existing != null) {
                        if (!existing.partnerId().equals(partnerId) || !mandateId.equals(existing.mandateId())
                                || existing.amount().compareTo(req.amount()) != 0) {
                            throw ApiException.conflict("charge_invoice_conflict", "charge " + chargeId
                                    + " already has an invoice for another partner, mandate or amount");
                        }
                        return Uni.createFrom().item(new ChargeInvoice(InvoiceView.of(existing), false));
                    }
                    if (req.expiresAt() != null && !req.expiresAt().isAfter(Instant.now())) {
                        throw ApiException.invalidField("expiresAt", "must be in the future");
                    }
                    if (!chains.get(req.chain()).acceptsInvoices()) {
                        throw notConfigured(req.chain());
                    }
                    return create(tx, partnerId, req, mandateId, chargeId).map(view -> new ChargeInvoice(view, true));
                }));
    }

    private Uni<InvoiceView> create(SqlClient tx, String partnerId, NewInvoice req, String mandateId, String chargeId) {
        ChainTable.Entry chain = chains.get(req.chain());
        if (!chain.acceptsInvoices()) {
            return Uni.createFrom().failure(notConfigured(req.chain()));
        }
        UUID id = UUID.randomUUID();
        Instant now = Instant.now();
        BigInteger atomic = Usdc.toAtomic(req.amount());
        boolean evm = req.chain().kind() == Chain.Kind.EVM;
        // EVM: the invoice's own CREATE2 deposit address; Solana: the seller wallet plus the memo.
        String payTo = evm ? DepositAddress.of(chain.depositFactoryAddress().orElseThrow(), id) : chain.paymentAddress().orElseThrow();
        return invoices.nextNumber(tx, partnerId)
                .map(number -> new Invoice(id, number, partnerId, InvoiceStatus.PENDING, req.amount(),
                        req.currency(), req.customerEmail(), req.customerName(), req.description(),
                        chain.name(), chain.networkId(), payTo, chain.usdcAddress(), atomic, evm ? null : memo(id),
                        null, null, null, null, BigInteger.ZERO, null, null, now,
                        evm ? Invoice.AddressKind.DEPOSIT : Invoice.AddressKind.MEMO, null,
                        req.expiresAt() != null ? req.expiresAt() : now.plus(config.expiry().defaultTtl()), mandateId, chargeId))
                .call(inv -> invoices.insert(tx, inv))
                // a charge's invoice may be paid from its mandate's escrow (issue 30): the release's ref finds it
                .call(inv -> chargeId == null ? Uni.createFrom().voidItem() : invoices.setEscrowRef(tx, inv.id(), escrowRef(chargeId)))
                .call(inv -> outbox.append(tx, event(InvoiceEvent.CREATED, inv, now)))
                .map(InvoiceView::of);
    }

    /** The ref of a charge's escrow release: keccak-256 of the charge id's UTF-8 bytes, {@code 0x} + 64 lower-case hex. */
    public static String escrowRef(String chargeId) {
        return org.web3j.crypto.Hash.sha3String(chargeId).toLowerCase(java.util.Locale.ROOT);
    }

    public Uni<InvoiceView> get(String partnerId, UUID id) {
        return invoices.findForPartner(pool, partnerId, id)
                .map(inv -> {
                    if (inv == null) {
                        throw notFound();
                    }
                    return InvoiceView.of(inv);
                });
    }

    /** A page of the partner's invoices, newest first, optionally of one status. */
    public Uni<Page<InvoiceView>> list(String partnerId, String limitParam, String cursor, InvoiceStatus status) {
        int limit = PageLimit.of(limitParam, config.paging().defaultLimit(), config.paging().maxLimit());
        Long before = KeysetCursor.decode(CURSOR_KIND, cursor);
        return invoices.page(pool, partnerId, before, status, limit + 1).map(rows -> {
            boolean more = rows.size() > limit;
            List<Invoice> page = more ? rows.subList(0, limit) : rows;
            String next = more ? KeysetCursor.encode(CURSOR_KIND, page.get(page.size() - 1).invoiceNumber()) : null;
            return new Page<>(page.stream().map(InvoiceView::of).toList(), next);
        });
    }

    /** The Solana memo binding a payment to this invoice: the invoice id itself. */
    static String memo(UUID id) {
        return id.toString();
    }

    public static InvoiceEvent event(String type, Invoice inv, Instant at) {
        return new InvoiceEvent(EventHeader.of(type, inv.id().toString(), inv.partnerId(), at,
                InvoiceEvent.SCHEMA_VERSION), inv.status().name(), EventCodec.mapper().valueToTree(InvoiceView.of(inv)));
    }

    static ApiException notFound() {
        return ApiException.notFound("invoice_not_found", "no invoice with this id");
    }

    private static ApiException notConfigured(Chain chain) {
        return new ApiException(400, "chain_not_configured",
                "chain: " + chain.value() + " has no seller wallet" + (chain.kind() == Chain.Kind.EVM ? " or deposit factory" : "")
                        + " configured on this deployment");
    }
}
