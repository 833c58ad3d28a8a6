package dev.agentpay.mandate.budget.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.consumer.IdempotentConsumer;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.InvoiceEvent;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.commons.outbox.Outbox;
import dev.agentpay.commons.rest.KeysetCursor;
import dev.agentpay.commons.rest.PageLimit;
import dev.agentpay.commons.sql.Times;
import dev.agentpay.mandate.budget.client.InvoiceClient;
import dev.agentpay.mandate.budget.config.BudgetConfig;
import dev.agentpay.mandate.budget.domain.BudgetLedger;
import dev.agentpay.mandate.budget.domain.BudgetViews;
import dev.agentpay.mandate.budget.domain.Charge;
import dev.agentpay.mandate.budget.domain.Usdc;
import dev.agentpay.mandate.budget.repository.BudgetRepository;
import dev.agentpay.mandate.budget.repository.BudgetRepository.BudgetRow;
import dev.agentpay.mandate.mandates.domain.Mandate;
import dev.agentpay.mandate.mandates.repository.MandateRepository;
import dev.agentpay.mandate.config.ApiJson;
import dev.agentpay.mandate.idempotency.domain.ApiResult;
import dev.agentpay.mandate.idempotency.service.IdempotencyService;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * Charges against a mandate's budget (mandate-service README, "Budgets and charges").
 *
 * <p>A charge is made in three steps: (1) one transaction locks the budget row, brings it to the current
 * period, reserves the amount ({@link BudgetLedger#reserve}) and inserts the charge as {@code reserving}; (2)
 * invoice-service creates the charge's invoice, keyed by the charge id ({@link InvoiceClient}: a repeat
 * returns the same invoice); (3) a second transaction links the invoice ({@code pending}) and writes
 * {@code mandate.charge_created}. A crash or time-out between the steps leaves a {@code reserving} charge that
 * {@link #recover()} finishes (same charge id, so the same invoice); an invoice refused by invoice-service
 * (400) releases the reservation and removes the charge, which was never announced. invoice-service's
 * {@code invoice.settled} / {@code invoice.expired} events then move the charge to {@code settled} (spent) or
 * {@code released} ({@link #applyInvoiceEvent}).
 */
@ApplicationScoped
public class BudgetService {

    public static final String CHARGE_CREATED = "mandate.charge_created";
    public static final String CHARGE_SETTLED = "mandate.charge_settled";
    public static final String CHARGE_RELEASED = "mandate.charge_released";
    public static final String BUDGET_EXHAUSTED = "mandate.budget_exhausted";

    /** States in which a mandate may be charged (a two-party mandate is signed_by_both; an N-party one signed_by_all). */
    static final Set<String> CHARGEABLE = Set.of("signed_by_both", "signed_by_all", "in_progress");

    private static final Logger LOG = Logger.getLogger(BudgetService.class);

    /** The kind of the cursors of the charges page ({@link KeysetCursor}), positioned by charge sequence. */
    static final char CURSOR_KIND = 'c';

    @Inject
    Pool pool;

    @Inject
    BudgetRepository budgets;

    @Inject
    MandateRepository mandates;

    @Inject
    Outbox outbox;

    @Inject
    InvoiceClient invoices;

    @Inject
    BudgetConfig config;

    @Inject
    IdempotentConsumer idempotent;

    @Inject
    dev.agentpay.mandate.escrow.service.EscrowService escrow;

    /** A validated charge request. */
    public record NewCharge(BigInteger amountAtomic, String chain, String description, Long expiresInSeconds) {
    }

    /** 409 {@code budget_exceeded}: the error body also carries {@code remaining}. */
    public static final class BudgetExceeded extends ApiException {
        private final String remaining;

        BudgetExceeded(String asked, String remaining) {
            super(409, "budget_exceeded", "a charge of " + asked + " USDC is more than the " + remaining
                    + " USDC remaining in this budget period");
            this.remaining = remaining;
        }

        public String remaining() {
            return remaining;
        }
    }

    /** The reservation step's outcome: the charge, and whether it was made by an earlier request with the same key. */
    record Reserved(Charge charge, boolean replay) {
    }

    public Uni<ApiResult> charge(String partnerId, String mandateId, IdempotencyService.Key key, NewCharge req) {
        return reserveOnce(partnerId, mandateId, key, req)
                .onFailure(BudgetService::uniqueViolation).recoverWithUni(() -> reserveOnce(partnerId, mandateId, key, req))
                .flatMap(r -> {
                    Charge c = r.charge();
                    if (r.replay() && c.answer() != null) {
                        return Uni.createFrom().item(replayed(c.answer()));
                    }
                    return finish(c).map(answer -> r.replay() ? replayed(answer) : new ApiResult(201, answer, false, null));
                });
    }

    private static ApiResult replayed(String answer) {
        return ApiResult.replay(201, answer);
    }

    private static boolean uniqueViolation(Throwable t) {
        return t instanceof PgException pg && "23505".equals(pg.getSqlState());
    }

    /** Step 1, one transaction: the budget row locked, brought to the current period, the amount reserved. */
    Uni<Reserved> reserveOnce(String partnerId, String mandateId, IdempotencyService.Key key, NewCharge req) {
        Instant now = Times.now();
        return pool.withTransaction(conn -> (key == null ? Uni.createFrom().<Charge>nullItem()
                : budgets.findByKey(conn, partnerId, key.key())).flatMap(earlier -> {
                    if (earlier != null) {
                        if (!earlier.fingerprint().equals(key.fingerprint())) {
                            throw ApiException.conflict("idempotency_key_reused",
                                    "this Idempotency-Key was already used with a different request");
                        }
                        return Uni.createFrom().item(new Reserved(earlier, true));
                    }
                    return mandates.find(conn, mandateId, partnerId).flatMap(m -> {
                        if (m == null) {
                            throw ApiException.notFound("mandate_not_found", "no such mandate");
                        }
                        if (!CHARGEABLE.contains(m.state.wire()) || m.pastExpiry(now)) {
                            throw ApiException.conflict("mandate_not_active", "mandate is " + m.state.wire()
                                    + (m.pastExpiry(now) ? " and expired at " + ApiJson.time(m.expiresAt) : "")
                                    + ": charges are accepted only while it is signed by every party or in progress");
                        }
                        return budgets.lock(conn, mandateId).flatMap(b -> {
                            if (b == null) {
                                throw ApiException.conflict("no_budget", "this mandate has no budget: it was created without one");
                            }
                            return budgets.signedByAllAt(conn, mandateId).flatMap(anchor -> reserve(conn, m, b, anchor,
                                    partnerId, key, req, now));
                        });
                    });
                }));
    }

    private Uni<Reserved> reserve(SqlClient conn, Mandate m, BudgetRow b, Instant anchor, String partnerId,
            IdempotencyService.Key key, NewCharge req, Instant now) {
        BudgetLedger ledger = b.ledger();
        ledger.roll(anchor == null ? now : anchor, now);
        switch (ledger.reserve(req.amountAtomic(), b.maxPerChargeAtomic())) {
            case OVER_LIMIT -> throw ApiException.conflict("charge_over_limit", "a charge of "
                    + Usdc.text(req.amountAtomic()) + " USDC is more than max_per_charge " + b.terms().maxPerCharge());
            case EXCEEDED -> throw new BudgetExceeded(Usdc.text(req.amountAtomic()), Usdc.text(ledger.remaining()));
            case RESERVED -> {
            }
        }
        Charge c = new Charge("chg_" + UUID.randomUUID(), 0, m.id, partnerId, req.amountAtomic(), req.chain(),
                req.description(), req.expiresInSeconds() == null ? null : now.plusSeconds(req.expiresInSeconds()),
                Charge.RESERVING, null, key == null ? null : key.key(), key == null ? null : key.fingerprint(), null, now,
                null, null, null);
        Uni<Void> exhausted = ledger.remaining().signum() == 0
                ? outbox.append(conn, event(BUDGET_EXHAUSTED, m, null, b, ledger, anchor, now))
                : Uni.createFrom().voidItem();
        return Uni.combine().all().unis(budgets.insertCharge(conn, c), budgets.updateLedger(conn, m.id, ledger, now), exhausted)
                .discardItems().replaceWith(new Reserved(c, false));
    }

    /**
     * Steps 2 and 3: the invoice created (or found: the call is keyed by the charge id) and linked. Answers the
     * charge's 201 body; a refusal by invoice-service undoes the reservation and answers that refusal; no answer
     * from invoice-service is 503 {@code charge_pending} (the charge stays reserving; {@link #recover} or a retry with
     * the same Idempotency-Key finishes it).
     */
    Uni<String> finish(Charge c) {
        return invoices.invoiceFor(c).flatMap(outcome -> {
            if (outcome instanceof InvoiceClient.Created created) {
                return link(c, created);
            }
            if (outcome instanceof InvoiceClient.Refused refused) {
                return undo(c).map(v -> {
                    throw new ApiException(400, refused.code(), refused.message());
                });
            }
            InvoiceClient.Unavailable u = (InvoiceClient.Unavailable) outcome;
            LOG.warnf("charge %s: invoice not created yet (%s); it stays reserving until it is", c.id(), u.why());
            return Uni.createFrom().failure(new ApiException(503, "charge_pending", "the charge " + c.id()
                    + " is reserved but its invoice could not be created yet; retry with the same Idempotency-Key "
                    + "(or read GET /v1/mandates/" + c.mandateId() + "/budget): it completes within a minute"));
        });
    }

    private Uni<String> link(Charge c, InvoiceClient.Created created) {
        Instant now = Times.now();
        return pool.withTransaction(conn -> budgets.lockCharge(conn, c.id()).flatMap(current -> {
            if (current == null) {
                throw new IllegalStateException("charge " + c.id() + " vanished with invoice " + created.invoiceId());
            }
            if (current.answer() != null) {
                return Uni.createFrom().item(current.answer());
            }
            Charge linked = withInvoice(current, created.invoiceId());
            return budgets.find(conn, c.mandateId()).flatMap(b -> budgets.signedByAllAt(conn, c.mandateId()).flatMap(anchor ->
                    // the mandate row locked: links, escrow events and disputes of one mandate apply one after the other
                    // (never the budget row here: locks go budget, then charge, and this transaction holds the charge)
                    mandates.lockAny(conn, c.mandateId()).flatMap(m -> (Charge.RESERVING.equals(current.status())
                            ? escrow.paysFromEscrow(conn, m, c.amountAtomic()) : Uni.createFrom().item(false)).flatMap(fromEscrow -> {
                // a charge under a funded mandate is paid from escrow (issue 30): the release goes out with its link
                String answer = ApiJson.envelope(answer(linked, created.invoice(), b, anchor, now, fromEscrow));
                if (!Charge.RESERVING.equals(current.status())) {
                    // finished by the event consumer already (the invoice settled or expired first): keep the answer only
                    return budgets.storeAnswer(conn, c.id(), answer).replaceWith(answer);
                }
                return budgets.link(conn, c.id(), created.invoiceId(), answer)
                        .flatMap(ok -> outbox.append(conn, event(CHARGE_CREATED, m, linked, b, b.ledger(), anchor, now)))
                        .flatMap(v -> fromEscrow ? escrow.release(conn, m, c.id(), c.amountAtomic(), now) : Uni.createFrom().voidItem())
                        .replaceWith(answer);
            }))));
        }));
    }

    private static Charge withInvoice(Charge c, String invoiceId) {
        String status = Charge.RESERVING.equals(c.status()) ? Charge.PENDING : c.status();
        return new Charge(c.id(), c.seq(), c.mandateId(), c.partnerId(), c.amountAtomic(), c.chain(), c.description(),
                c.invoiceExpiresAt(), status, invoiceId, c.idempotencyKey(), c.fingerprint(), c.answer(), c.createdAt(),
                c.settledAt(), c.releasedAt(), c.settledPeriodStart());
    }

    /** invoice-service refused the invoice: the reservation is given back and the (never announced) charge removed. */
    private Uni<Void> undo(Charge c) {
        Instant now = Times.now();
        return pool.withTransaction(conn -> budgets.lock(conn, c.mandateId()).flatMap(b -> budgets.lockCharge(conn, c.id())
                .flatMap(current -> {
                    if (current == null || !Charge.RESERVING.equals(current.status())) {
                        return Uni.createFrom().voidItem();
                    }
                    return budgets.signedByAllAt(conn, c.mandateId()).flatMap(anchor -> {
                        BudgetLedger ledger = b.ledger();
                        ledger.roll(anchor == null ? now : anchor, now);
                        ledger.release(current.amountAtomic());
                        return budgets.deleteReserving(conn, c.id())
                                .flatMap(ok -> budgets.updateLedger(conn, c.mandateId(), ledger, now));
                    });
                })));
    }

    private static Map<String, Object> answer(Charge c, JsonNode invoice, BudgetRow b, Instant anchor, Instant now, boolean fromEscrow) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("charge_id", c.id());
        data.put("mandate_id", c.mandateId());
        data.put("invoice_id", c.invoiceId());
        data.put("amount", Usdc.text(c.amountAtomic()));
        data.put("status", c.status());
        data.put("expires_at", invoice.path("expiresAt").asText(null));
        data.put("budget_remaining", BudgetViews.State.of(b.terms(), b.ledger(), anchor, now).remaining());
        data.put("paymentDetails", invoice.path("paymentDetails"));
        // "escrow": the service releases the amount from the mandate's escrow, nobody pays the invoice by hand
        data.put("paid_from", fromEscrow ? "escrow" : "invoice");
        return data;
    }

    /**
     * Applies one {@code invoice-events} record once, in a transaction of its own (the consumer's entry point): the
     * event id, recorded for {@code consumer}, and {@link #applyInvoiceEvent}'s effect commit together.
     *
     * @return false when this event was applied before
     */
    public Uni<Boolean> applyInvoiceEventOnce(InvoiceEvent e, String consumer) {
        return pool.withTransaction(conn -> idempotent.once(conn, e.eventId(), consumer, tx -> applyInvoiceEvent(tx, e)));
    }

    /**
     * Applies one {@code invoice-events} record to the charge its invoice belongs to (in the transaction that
     * marks the event processed, {@link #applyInvoiceEventOnce}): {@code invoice.settled} spends the reservation,
     * {@code invoice.expired} releases it. Other types and invoices of no charge change nothing. Decision:
     * {@code invoice.unsettled} (a reorg took the paying transfer back) leaves the charge settled and the amount
     * spent: putting it back to reserved could push {@code spent + reserved} over the amount, and the transfer is
     * normally mined again, which settles the invoice again (a no-op here).
     */
    public Uni<Void> applyInvoiceEvent(SqlClient tx, InvoiceEvent e) {
        boolean settled = InvoiceEvent.SETTLED.equals(e.type());
        boolean expired = InvoiceEvent.EXPIRED.equals(e.type());
        String chargeId = e.view() == null ? null : e.view().chargeId();
        if ((!settled && !expired) || chargeId == null) {
            return Uni.createFrom().voidItem();
        }
        String invoiceId = e.aggregateId();
        Instant now = Times.now();
        return budgets.findCharge(tx, chargeId).flatMap(found -> {
            if (found == null) {
                LOG.warnf("invoice %s names charge %s, which this service does not know", invoiceId, chargeId);
                return Uni.createFrom().voidItem();
            }
            return budgets.lock(tx, found.mandateId()).flatMap(b -> budgets.lockCharge(tx, chargeId).flatMap(c -> {
                if (!Charge.RESERVING.equals(c.status()) && !Charge.PENDING.equals(c.status())) {
                    return Uni.createFrom().voidItem();
                }
                if (c.invoiceId() != null && !c.invoiceId().equals(invoiceId)) {
                    LOG.errorf("invoice %s names charge %s, whose invoice is %s: ignored", invoiceId, chargeId, c.invoiceId());
                    return Uni.createFrom().voidItem();
                }
                return budgets.signedByAllAt(tx, c.mandateId()).flatMap(anchor -> {
                    BudgetLedger ledger = b.ledger();
                    ledger.roll(anchor == null ? now : anchor, now);
                    Charge after;
                    Uni<Void> write;
                    if (settled) {
                        ledger.settle(c.amountAtomic());
                        after = new Charge(c.id(), c.seq(), c.mandateId(), c.partnerId(), c.amountAtomic(), c.chain(),
                                c.description(), c.invoiceExpiresAt(), Charge.SETTLED, invoiceId, c.idempotencyKey(),
                                c.fingerprint(), c.answer(), c.createdAt(), now, null, ledger.periodStart());
                        write = budgets.settle(tx, c.id(), invoiceId, now, ledger.periodStart());
                    } else {
                        ledger.release(c.amountAtomic());
                        after = new Charge(c.id(), c.seq(), c.mandateId(), c.partnerId(), c.amountAtomic(), c.chain(),
                                c.description(), c.invoiceExpiresAt(), Charge.RELEASED, invoiceId, c.idempotencyKey(),
                                c.fingerprint(), c.answer(), c.createdAt(), null, now, null);
                        write = budgets.release(tx, c.id(), invoiceId, now);
                    }
                    return mandates.findAny(tx, c.mandateId()).flatMap(m -> write
                            .flatMap(v -> budgets.updateLedger(tx, c.mandateId(), ledger, now))
                            .flatMap(v -> outbox.append(tx, event(settled ? CHARGE_SETTLED : CHARGE_RELEASED, m, after, b,
                                    ledger, anchor, now))));
                });
            }));
        });
    }

    /** {@code GET /v1/mandates/{id}/budget}: the current period's state and a page of charges, newest first. */
    public Uni<BudgetViews.Budget> budget(String partnerId, String mandateId, String limitParam, String cursor) {
        int limit = PageLimit.of(limitParam, 50, 200);
        Long before = KeysetCursor.decode(CURSOR_KIND, cursor);
        Instant now = Times.now();
        return pool.withConnection(conn -> mandates.find(conn, mandateId, partnerId).flatMap(m -> {
            if (m == null) {
                throw ApiException.notFound("mandate_not_found", "no such mandate");
            }
            return budgets.find(conn, mandateId).flatMap(b -> {
                if (b == null) {
                    throw ApiException.notFound("no_budget", "this mandate has no budget");
                }
                return budgets.signedByAllAt(conn, mandateId).flatMap(anchor -> budgets.page(conn, mandateId, before, limit + 1)
                        .map(rows -> {
                            boolean more = rows.size() > limit;
                            List<Charge> page = more ? rows.subList(0, limit) : rows;
                            String next = more ? KeysetCursor.encode(CURSOR_KIND, page.get(page.size() - 1).seq()) : null;
                            return BudgetViews.Budget.of(mandateId, BudgetViews.State.of(b.terms(), b.ledger(), anchor, now),
                                    dev.agentpay.mandate.escrow.domain.EscrowView.of(m.escrow), page.stream().map(BudgetViews.ChargeView::of).toList(), next);
                        }));
            });
        }));
    }

    /**
     * Finishes charges left {@code reserving} for longer than {@code budget.recovery.grace} (a crash of this
     * service or of invoice-service mid-charge, or a time-out): their invoice is created or found by the same
     * charge id and linked, or, when invoice-service refuses it, the reservation is given back.
     */
    @Scheduled(every = "${budget.recovery.interval:5s}", delayed = "5s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    public Uni<Void> recover() {
        Instant before = Times.now().minus(config.recovery().grace());
        return budgets.reservingBefore(pool, before, config.recovery().batchSize())
                .onItem().transformToMulti(list -> Multi.createFrom().iterable(list))
                .onItem().transformToUniAndConcatenate(c -> finish(c).replaceWithVoid()
                        .onFailure().recoverWithItem(e -> {
                            if (!(e instanceof ApiException)) {
                                LOG.warnf(e, "charge %s: recovery round failed", c.id());
                            }
                            return null;
                        }))
                .collect().last().replaceWithVoid()
                .onFailure().recoverWithItem(e -> {
                    LOG.warnf("charge recovery round failed: %s", e.getMessage());
                    return null;
                });
    }

    private static MandateEvent event(String type, Mandate m, Charge c, BudgetRow b, BudgetLedger ledger, Instant anchor,
            Instant now) {
        BudgetViews.State state = BudgetViews.State.of(b.terms(), ledger, anchor, now);
        JsonNode data = EventCodec.mapper().valueToTree(new BudgetViews.EventData(m.id,
                c == null ? null : BudgetViews.ChargeView.of(c), state));
        if (data instanceof ObjectNode o && c == null) {
            o.remove("charge");
        }
        // not a state change of the mandate: no transition, no from/to state (anchor-service anchors nothing,
        // trust counters count nothing); `mandate` carries the event's data, which webhooks deliver
        return new MandateEvent(EventHeader.of(type, m.id, m.partnerId, now, MandateEvent.SCHEMA_VERSION), null, null, null,
                m.protoMandateHash, data);
    }
}
