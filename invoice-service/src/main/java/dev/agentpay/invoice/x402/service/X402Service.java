package dev.agentpay.invoice.x402.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.chains.Chain;
import dev.agentpay.commons.chains.ChainTable;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.invoice.invoices.domain.Invoice;
import dev.agentpay.invoice.invoices.repository.InvoiceRepository;
import dev.agentpay.invoice.x402.client.FacilitatorClient;
import dev.agentpay.invoice.x402.config.X402Config;
import dev.agentpay.invoice.x402.domain.Capability;
import dev.agentpay.invoice.x402.domain.DecodedPayment;
import dev.agentpay.invoice.x402.domain.PaymentRefused;
import dev.agentpay.invoice.x402.domain.PaymentRequirement;
import dev.agentpay.invoice.x402.domain.PaymentState;
import dev.agentpay.invoice.x402.domain.X402Payment;
import dev.agentpay.invoice.x402.domain.X402Result;
import dev.agentpay.invoice.x402.repository.PaymentRepository;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * The paid call: requirements, decoding and checking the payment, claiming it (replay guard), the
 * facilitator's verify and settle, then the result. The payment is recorded first (SETTLING, committed
 * before the facilitator is asked to move money); after the settle, its SETTLED state, the invoice and
 * its COMPLETED state commit together. A crash between the settle and that commit leaves SETTLING, which
 * {@link X402Reconciler} resolves from the chain (EIP-3009 {@code authorizationState}) and completes;
 * if only the invoice write fails, SETTLED is committed alone and the reconciler writes the invoice.
 * So there is never an invoice without its payment, and a settled payment gets its invoice.
 */
@ApplicationScoped
public class X402Service {

    private static final Logger LOG = Logger.getLogger(X402Service.class);
    static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    X402Config config;

    @Inject
    Challenges challenges;

    @Inject
    X402Requests requests;

    @Inject
    FacilitatorClient facilitator;

    @Inject
    PaymentRepository payments;

    @Inject
    InvoiceRepository invoices;

    @Inject
    ChainTable chains;

    @Inject
    Pool pool;

    @Inject
    MeterRegistry meters;

    @Inject
    X402Completion completion;

    private final Map<Capability, io.micrometer.core.instrument.Counter> challengeCounters =
            new java.util.concurrent.ConcurrentHashMap<>();

    private final Map<String, Timer> phaseTimers = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Records one phase of a paid call in {@code x402.phase}: {@code claim} (replay guard committed) and
     * {@code verify} (facilitator) run side by side from the same start, then {@code settle} (facilitator,
     * money moves) and {@code complete} (SETTLED + invoice + outbox committed).
     */
    private void phase(String name, long startNanos) {
        phaseTimers.computeIfAbsent(name, n -> Timer.builder("x402.phase").tag("phase", n)
                        .description("duration of one phase of a paid x402 call").publishPercentiles(0.5, 0.9, 0.99)
                        .register(meters))
                .record(System.nanoTime() - startNanos, java.util.concurrent.TimeUnit.NANOSECONDS);
    }

    /** {@code POST /api/x402/invoice}. */
    public Uni<X402Result> invoice(dev.agentpay.invoice.invoices.rest.InvoiceApi.X402InvoiceRequest body, String xPayment,
            String paymentSignature, String resourceUrl) {
        ObjectNode request = requests.invoice(body);
        Chain chain = Chain.of(config.invoices().chain()).orElseThrow();
        if (!chains.get(chain).acceptsInvoices()) {
            throw new ApiException(503, "x402_unavailable", "invoices on " + chain.value()
                    + " are not configured on this deployment (no seller wallet)");
        }
        return pay(Capability.INVOICE, request, xPayment, paymentSignature, resourceUrl);
    }

    /** {@code POST /api/x402/settle}: an unknown invoice is a 404 before any payment is asked for. */
    public Uni<X402Result> settle(UUID invoiceId, String xPayment, String paymentSignature, String resourceUrl) {
        return invoices.find(pool, invoiceId).flatMap(inv -> {
            if (inv == null) {
                return Uni.createFrom().failure(ApiException.notFound("invoice_not_found", "no invoice with this invoice_id"));
            }
            ObjectNode request = JSON.createObjectNode().put("invoice_id", invoiceId.toString());
            return pay(Capability.SETTLE, request, xPayment, paymentSignature, resourceUrl);
        });
    }

    /**
     * {@code POST /v1/invoices/{id}/pay}: no API key, the invoice id is the capability. An unknown,
     * settled or expired invoice, or one on a chain without an x402 rail, is refused before any payment
     * is asked for (nothing is charged); otherwise the 402 asks for exactly what the invoice still asks
     * for, paid to its own deposit address, and a paid call finds it SETTLED (settlementSource x402).
     */
    public Uni<X402Result> payInvoice(String id, String xPayment, String paymentSignature, String resourceUrl) {
        return byCapability(id).flatMap(inv -> {
            ApiException closed = unpayable(inv, Instant.now());
            if (closed != null) {
                return Uni.createFrom().failure(closed);
            }
            java.math.BigInteger due = inv.payableAtomic().subtract(inv.paidAtomic());
            List<PaymentRequirement> reqs = challenges.forInvoice(inv, due, resourceUrl);
            if (reqs.isEmpty()) {
                return Uni.createFrom().failure(new ApiException(400, "x402_unsupported_chain", "invoice " + inv.id() + " is on "
                        + inv.chain() + "; x402 pays invoices on " + config.evm().chain() + " only: pay "
                        + inv.payableAtomic().subtract(inv.paidAtomic()) + " atomic USDC to " + inv.paymentAddress() + " with a plain transfer"));
            }
            ObjectNode request = JSON.createObjectNode().put("invoice_id", inv.id().toString());
            return pay(Capability.PAY, request, xPayment, paymentSignature, resourceUrl, reqs, inv.id());
        });
    }

    /** Why an invoice cannot be paid now (409 settled, 410 expired or past its deadline), else null. */
    private static ApiException unpayable(Invoice inv, Instant now) {
        if (inv.status() == dev.agentpay.invoice.invoices.domain.InvoiceStatus.SETTLED) {
            return new ApiException(409, "invoice_already_settled", "invoice " + inv.id() + " is already SETTLED; nothing to"
                    + " pay; you were not charged");
        }
        if (inv.status() == dev.agentpay.invoice.invoices.domain.InvoiceStatus.EXPIRED || inv.dueToExpire(now)) {
            return new ApiException(410, "invoice_expired", "invoice " + inv.id() + " has EXPIRED (expiresAt "
                    + inv.expiresAt() + ") and can no longer be paid; you were not charged");
        }
        return null;
    }

    /**
     * {@code GET /v1/invoices/{id}/pay}: the state of any invoice for whoever holds its id (the same
     * capability as paying it), free and without a key: the Invoice object without the customer's personal
     * fields, as the paid settlement check answers it. This is how the buyer of an x402-created invoice
     * (owned by {@code x402}, so {@code GET /v1/invoices/{id}} with a partner key is 404) watches it.
     */
    public Uni<JsonNode> invoiceStatus(String id) {
        return byCapability(id).map(X402Results::settleResult);
    }

    /** The invoice an id names, whoever owns it (the id is the capability); 404 for a malformed or unknown id. */
    private Uni<Invoice> byCapability(String id) {
        UUID invoiceId;
        try {
            invoiceId = UUID.fromString(id == null ? "" : id.trim());
        } catch (IllegalArgumentException e) {
            return Uni.createFrom().failure(ApiException.notFound("invoice_not_found", "no invoice with this id"));
        }
        return invoices.find(pool, invoiceId).map(inv -> {
            if (inv == null) {
                throw ApiException.notFound("invoice_not_found", "no invoice with this id");
            }
            return inv;
        });
    }

    private Uni<X402Result> pay(Capability cap, ObjectNode request, String xPayment, String paymentSignature,
            String resourceUrl) {
        return pay(cap, request, xPayment, paymentSignature, resourceUrl, challenges.requirements(cap, resourceUrl), null);
    }

    private Uni<X402Result> pay(Capability cap, ObjectNode request, String xPayment, String paymentSignature,
            String resourceUrl, List<PaymentRequirement> reqs, UUID target) {
        if (reqs.isEmpty()) {
            return Uni.createFrom().failure(new ApiException(503, "x402_unavailable",
                    "no payment rail is configured on this deployment"));
        }
        boolean hasV1 = xPayment != null && !xPayment.isBlank();
        boolean hasV2 = paymentSignature != null && !paymentSignature.isBlank();
        if (!hasV1 && !hasV2) {
            challengeCounters.computeIfAbsent(cap, c -> meters.counter("x402.challenges", "capability", c.value())).increment();
            return Uni.createFrom().item(challenge(cap, resourceUrl, reqs, "payment_required",
                    "X-PAYMENT header is required (or PAYMENT-SIGNATURE for x402 version 2)"));
        }
        if (hasV1 && hasV2) {
            return Uni.createFrom().item(challenge(cap, resourceUrl, reqs, "invalid_payment",
                    "send one payment: X-PAYMENT (x402 v1) or PAYMENT-SIGNATURE (v2), not both"));
        }
        DecodedPayment payment;
        try {
            payment = PaymentDecoder.decode(hasV1 ? xPayment : paymentSignature, hasV1 ? 1 : 2, reqs, Instant.now());
        } catch (PaymentRefused e) {
            return Uni.createFrom().item(refused(cap, resourceUrl, reqs, e));
        }
        Instant now = Instant.now();
        X402Payment row = new X402Payment(UUID.randomUUID(), payment.key(), cap, payment.version(), payment.network(),
                payment.payer(), payment.requirement().payTo(), payment.requirement().asset(), payment.amount(),
                payment.validBefore(), payment.nonce(), PaymentState.SETTLING, request, null, target, null, null, now, now);
        // The claim (durable replay guard) and /verify (no effect) run side by side; /settle, the only
        // step that moves money, starts only when both said yes.
        long t0 = System.nanoTime();
        ObjectNode requirement = Challenges.v1(payment.requirement());
        // an invoice payment is claimed only while its invoice is PENDING and before its deadline (the
        // invoice row locked), so the expiry sweep never expires an invoice under an accepted payment
        Uni<Boolean> claim = pool.withTransaction(c -> target == null ? payments.claim(c, row)
                        : invoices.lock(c, target).flatMap(inv -> {
                            ApiException closed = unpayable(inv, now);
                            return closed != null ? Uni.createFrom().<Boolean>failure(closed) : payments.claim(c, row);
                        }))
                .invoke(x -> phase("claim", t0))
                .onFailure(X402Service::payOnceViolation).transform(t -> new PaymentRefused("invoice_payment_in_progress",
                        "invoice " + target + " already has an x402 payment in flight or done; you were not charged"));
        Uni<Object> verify = facilitator.verify(1, payment.v1Payload(), requirement)
                .invoke(x -> phase("verify", t0))
                .map(v -> (Object) v)
                .onFailure().recoverWithItem(t -> t);
        // verify is subscribed first: it is the longer of the two, so its request leaves before the claim's
        return Uni.combine().all().unis(verify, claim).asTuple()
                .flatMap(both -> both.getItem2()
                        ? settleVerified(row, payment, requirement, both.getItem1())
                        : replay(row.key()))
                .onFailure(PaymentRefused.class)
                .recoverWithItem(t -> refused(cap, resourceUrl, reqs, (PaymentRefused) t))
                .invoke(r -> meters.counter("x402.calls", "capability", cap.value(), "status",
                        Integer.toString(r.status())).increment());
    }

    /** Another payment of the same invoice holds {@code x402_payment_pay_once}. */
    static boolean payOnceViolation(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c.getMessage() != null && c.getMessage().contains("x402_payment_pay_once")) {
                return true;
            }
        }
        return false;
    }

    private Uni<X402Result> replay(String key) {
        return payments.findByKey(pool, key).map(existing -> {
            String what = existing == null ? "was already presented"
                    : switch (existing.state()) {
                        case SETTLING -> "is being settled by another request";
                        case SETTLED, COMPLETED -> "was already used" + (existing.invoiceId() == null ? ""
                                : " (it paid " + existing.capability().value() + " for invoice " + existing.invoiceId() + ")");
                        case FAILED -> "was already presented";
                    };
            throw new PaymentRefused("payment_already_used",
                    "this payment " + what + "; each payment is accepted once: sign a new one");
        });
    }

    private Uni<X402Result> settleVerified(X402Payment row, DecodedPayment payment, ObjectNode requirement,
            Object verified) {
        Uni<JsonNode> verification = verified instanceof Throwable t
                ? Uni.createFrom().<JsonNode>failure(t)
                        .onFailure().call(e -> failed(row, e, false))
                        .onFailure().transform(e -> mapFailure(e, false))
                : Uni.createFrom().item((JsonNode) verified);
        return verification
                .flatMap(v -> {
                    if (!v.path("isValid").asBoolean(false)) {
                        String reason = v.path("invalidReason").asText("invalid_payment");
                        return fail(row, "payment_invalid", "the facilitator refused the payment: " + reason);
                    }
                    long t1 = System.nanoTime();
                    return facilitator.settle(1, payment.v1Payload(), requirement)
                            .invoke(x -> phase("settle", t1))
                            .onFailure().call(t -> failed(row, t, true))
                            .onFailure().transform(t -> mapFailure(t, true))
                            .flatMap(s -> {
                                if (!s.path("success").asBoolean(false)) {
                                    return fail(row, "settlement_failed", "the payment did not settle: "
                                            + s.path("errorReason").asText("unknown reason"));
                                }
                                String tx = s.path("transaction").asText(null);
                                String payer = s.path("payer").asText(row.payer());
                                long t2 = System.nanoTime();
                                return completion.settledAndCompleted(row, tx, payer)
                                        .invoke(x -> phase("complete", t2))
                                        .flatMap(done -> success(row.capability(), done, tx, payer, payment));
                            });
                });
    }


    /** Records why the money did not move (the key is free again), unless the outcome is unknown. */
    private Uni<Void> failed(X402Payment row, Throwable t, boolean settling) {
        if (settling && t instanceof FacilitatorClient.Unavailable u && u.outcomeUnknown()) {
            LOG.warnf("x402 payment %s: settle outcome unknown (%s); left for the reconciler", row.id(), u.getMessage());
            return Uni.createFrom().voidItem();
        }
        String code = t instanceof FacilitatorClient.Rejected ? "payment_rejected" : "facilitator_unavailable";
        return pool.withTransaction(c -> payments.markFailed(c, row.id(), code, t.getMessage(), Instant.now()))
                .replaceWithVoid();
    }

    private Uni<X402Result> fail(X402Payment row, String code, String message) {
        return pool.withTransaction(c -> payments.markFailed(c, row.id(), code, message, Instant.now()))
                .map(x -> {
                    throw new PaymentRefused(code, message);
                });
    }

    private static Throwable mapFailure(Throwable t, boolean settling) {
        if (t instanceof FacilitatorClient.Rejected r) {
            return new PaymentRefused("payment_rejected", "the facilitator rejected the payment: " + r.getMessage());
        }
        if (t instanceof FacilitatorClient.Unavailable u) {
            return new ApiException(503, "facilitator_unavailable", settling && u.outcomeUnknown()
                    ? "the payment facilitator did not answer; nothing was created. If the transfer lands on chain the"
                            + " call is completed automatically; do not sign a second payment for the same call yet"
                    : "the payment facilitator is unavailable; you were not charged: retry later (the same payment may be sent again)");
        }
        return t;
    }


    private Uni<X402Result> success(Capability cap, X402Completion.Completion done, String tx, String payer, DecodedPayment payment) {
        // an invoice this call just created answers from what was written; a paid invoice is read back
        Uni<JsonNode> result = cap == Capability.INVOICE && done.created() != null
                ? Uni.createFrom().item(X402Results.invoiceResult(done.created().id(), done.created().status()))
                : invoices.find(pool, done.invoiceId())
                        .map(inv -> cap == Capability.INVOICE ? X402Results.invoiceResult(inv) : X402Results.settleResult(inv));
        return result.map(r -> {
            ObjectNode body = JSON.createObjectNode();
            body.put("success", true);
            body.put("capability", cap.value());
            body.set("result", r);
            Map<String, String> headers = new LinkedHashMap<>();
            headers.put("X-PAYMENT-RESPONSE", X402Results.paymentResponse(tx, payment.network(), payer));
            if (payment.version() == 2) {
                headers.put("PAYMENT-RESPONSE", X402Results.paymentResponse(tx, payment.requirement().v2Network(), payer));
            }
            return new X402Result(200, body.toString(), headers);
        });
    }


    private X402Result refused(Capability cap, String resourceUrl, List<PaymentRequirement> reqs, PaymentRefused e) {
        meters.counter("x402.refusals", "reason", e.code()).increment();
        return challenge(cap, resourceUrl, reqs, e.code(), e.getMessage());
    }

    private X402Result challenge(Capability cap, String resourceUrl, List<PaymentRequirement> reqs, String code,
            String message) {
        Challenges.Prepared c = challenges.prepare(cap, resourceUrl, reqs, code, message);
        return new X402Result(402, c.body(), Map.of("PAYMENT-REQUIRED", c.v2Header()));
    }
}
