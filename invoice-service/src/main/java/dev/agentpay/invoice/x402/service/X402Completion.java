package dev.agentpay.invoice.x402.service;

import dev.agentpay.commons.error.ApiException;
import dev.agentpay.invoice.invoices.domain.InvoiceView;
import dev.agentpay.invoice.invoices.service.InvoiceService;
import dev.agentpay.invoice.x402.config.X402Config;
import dev.agentpay.invoice.x402.domain.Capability;
import dev.agentpay.invoice.x402.domain.PaymentState;
import dev.agentpay.invoice.x402.domain.X402Payment;
import dev.agentpay.invoice.x402.repository.PaymentRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * The end of a paid call once the money moved: the payment's SETTLED state and its result (the invoice it
 * created or paid) with its COMPLETED state, in one transaction when possible; {@link X402Reconciler} calls
 * {@link #complete} for payments left SETTLED.
 */
@ApplicationScoped
public class X402Completion {

    private static final Logger LOG = Logger.getLogger(X402Completion.class);

    @Inject
    X402Config config;

    @Inject
    X402Requests requests;

    @Inject
    PaymentRepository payments;

    @Inject
    InvoiceService invoiceService;

    @Inject
    dev.agentpay.invoice.settlement.service.SettlementService settlement;

    @Inject
    Pool pool;

    /**
     * Money moved: records SETTLED and writes the result. Normally one transaction does both (one
     * commit); if writing the result fails, SETTLED is committed on its own and the reconciler retries
     * the result. A crash before either commit leaves SETTLING, which the reconciler settles from the
     * chain's own record of the authorization.
     */
    Uni<Completion> settledAndCompleted(X402Payment row, String tx, String payer) {
        return pool.withTransaction(c -> payments.markSettledAndLock(c, row.id(), tx, payer, Instant.now())
                        .flatMap(settled -> {
                            if (settled == null) {
                                LOG.errorf("x402 payment %s settled in %s but its row moved on", row.id(), tx);
                                return completeIn(c, row.id());
                            }
                            return completeWith(c, settled);
                        }))
                .onFailure().recoverWithUni(t -> {
                    LOG.warnf("x402 payment %s settled (%s) but its result failed: %s; completing separately",
                            row.id(), tx, t.getMessage());
                    return pool.withTransaction(c -> payments.markSettled(c, row.id(), tx, payer, Instant.now()))
                            .flatMap(ok -> complete(row.id()))
                            .map(id -> new Completion(id, null))
                            .onFailure().transform(e -> new ApiException(503, "result_pending", "the payment settled (transaction "
                                    + tx + ") but its result could not be written yet; it is completed automatically"));
                })
                .flatMap(done -> done != null ? Uni.createFrom().item(done)
                        : completedInvoice(row.id()).map(id -> new Completion(id, null)));
    }

    /**
     * Writes the result of a SETTLED payment with its COMPLETED state in one transaction; idempotent
     * (a payment already completed returns its invoice).
     */
    public Uni<UUID> complete(UUID paymentId) {
        return pool.withTransaction(tx -> completeIn(tx, paymentId))
                .flatMap(done -> done != null ? Uni.createFrom().item(done.invoiceId()) : completedInvoice(paymentId));
    }

    /**
     * What completing a payment produced: its invoice id, and the invoice itself when this call created it
     * (the answer is then built without reading it back).
     */
    record Completion(UUID invoiceId, InvoiceView created) {
    }

    /** In the caller's transaction: the result of a SETTLED payment and its COMPLETED state; null if not SETTLED. */
    private Uni<Completion> completeIn(io.vertx.mutiny.sqlclient.SqlClient tx, UUID paymentId) {
        return payments.lockIn(tx, paymentId, PaymentState.SETTLED)
                .flatMap(p -> p == null ? Uni.createFrom().<Completion>nullItem() : completeWith(tx, p));
    }

    /** {@link #completeIn} for a payment already locked in {@code tx} in state SETTLED. */
    private Uni<Completion> completeWith(io.vertx.mutiny.sqlclient.SqlClient tx, X402Payment p) {
        Instant now = Instant.now();
        if (p.capability() == Capability.INVOICE) {
            return invoiceService.create(tx, config.invoices().owner(), requests.newInvoice(p.request()))
                    .flatMap(view -> payments.markCompleted(tx, p.id(), view.id(), now).replaceWith(new Completion(view.id(), view)));
        }
        UUID invoiceId = UUID.fromString(p.request().get("invoice_id").asText());
        if (p.capability() == Capability.PAY) {
            // the money went to the invoice's own address: count it (once) with the payment's completion; an
            // outcome recovered without its transaction hash is left to the watcher, which sees the transfer
            Uni<Void> count = p.txHash() == null ? Uni.createFrom().voidItem()
                    : settlement.paidThroughX402(tx, invoiceId, p.txHash(), p.payer(), p.amount(), now);
            return count
                    .call(() -> payments.markCompleted(tx, p.id(), invoiceId, now)).replaceWith(new Completion(invoiceId, null));
        }
        return payments.markCompleted(tx, p.id(), invoiceId, now).replaceWith(new Completion(invoiceId, null));
    }

    private Uni<UUID> completedInvoice(UUID paymentId) {
        return payments.find(pool, paymentId).map(p -> {
            if (p == null || p.state() != PaymentState.COMPLETED) {
                throw new IllegalStateException("x402 payment " + paymentId + " is not completable");
            }
            return p.invoiceId();
        });
    }
}
