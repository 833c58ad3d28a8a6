package dev.agentpay.mandate.dispute.service;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.sql.Times;
import dev.agentpay.mandate.budget.domain.Usdc;
import dev.agentpay.mandate.config.ApiJson;
import dev.agentpay.mandate.dispute.config.DisputeConfig;
import dev.agentpay.mandate.dispute.domain.DisputeCase;
import dev.agentpay.mandate.dispute.domain.DisputeViews;
import dev.agentpay.mandate.dispute.domain.Evidence;
import dev.agentpay.mandate.dispute.repository.DisputeRepository;
import dev.agentpay.mandate.idempotency.domain.ApiResult;
import dev.agentpay.mandate.idempotency.service.IdempotencyService;
import dev.agentpay.mandate.mandates.domain.Mandate;
import dev.agentpay.mandate.mandates.domain.MandateState;
import dev.agentpay.mandate.mandates.domain.Party;
import dev.agentpay.mandate.mandates.domain.Transition;
import dev.agentpay.mandate.mandates.repository.MandateRepository;
import dev.agentpay.mandate.mandates.service.MandateService;
import dev.agentpay.mandate.mandates.service.MandateViews;
import dev.agentpay.mandate.signing.CanonicalJson;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Disputes that end (issue 30; mandate-service README, "Disputes"). A dispute opened by
 * {@code POST /v1/mandates/{id}/dispute} collects evidence from each party ({@link #addEvidence}: stored with its
 * SHA-256, anchored as a {@code disputed -> disputed} row) until the operator's arbiter resolves it
 * ({@link #resolve}: a split of what is held) or its deadline passes ({@link #resolveDue}: everything held back to
 * the funder). Every change holds the mandate row locked, as every state change of the mandate does.
 */
@ApplicationScoped
public class DisputeService {

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(DisputeService.class);

    /** {@code triggered_by} of the arbiter's resolution. */
    public static final String ARBITER = "arbiter";

    @Inject
    Pool pool;

    @Inject
    MandateRepository mandates;

    @Inject
    DisputeRepository disputes;

    @Inject
    MandateService mandateService;

    @Inject
    IdempotencyService idempotency;

    @Inject
    DisputeConfig config;

    @Inject
    dev.agentpay.mandate.escrow.service.EscrowService escrow;

    /** A validated piece of evidence. */
    public record NewEvidence(String party, String text, List<String> links, String triggeredBy) {
    }

    /** 400 {@code resolution_sum_mismatch}: the error body also carries {@code held}. */
    public static final class SumMismatch extends ApiException {
        private final String held;

        SumMismatch(String toCounterparty, String toProposer, String held) {
            super(400, "resolution_sum_mismatch", "to_counterparty " + toCounterparty + " + to_proposer " + toProposer
                    + " must add up to the " + held + " USDC held for this mandate");
            this.held = held;
        }

        public String held() {
            return held;
        }
    }

    /** {@code POST /v1/mandates/{id}/dispute/evidence}: one piece of evidence for one party, anchored like a transition. */
    public Uni<ApiResult> addEvidence(String partnerId, IdempotencyService.Key key, String mandateId, NewEvidence req) {
        return idempotency.run(partnerId, key, conn -> mandates.lock(conn, mandateId, partnerId).flatMap(m -> {
            if (m == null) {
                throw notFound();
            }
            List<String> roles = m.signers().stream().map(p -> p.role).toList();
            if (!roles.contains(req.party())) {
                throw ApiException.badRequest("invalid_party", "party must be one of this mandate's parties: "
                        + String.join(", ", roles));
            }
            return disputes.find(conn, m.id).flatMap(c -> {
                requireOpen(m, c);
                Instant now = Times.now();
                if (!now.isBefore(c.deadlineAt())) {
                    throw ApiException.conflict("dispute_deadline_passed", "the dispute's deadline passed at "
                            + ApiJson.time(c.deadlineAt()) + ": no more evidence; it is being resolved by refunding the funder");
                }
                return disputes.evidence(conn, m.id).flatMap(existing -> {
                    long mine = existing.stream().filter(e -> e.party().equals(req.party())).count();
                    if (mine >= config.maxEvidencePerParty()) {
                        throw ApiException.conflict("evidence_limit", "the " + req.party() + " has submitted "
                                + config.maxEvidencePerParty() + " pieces of evidence, the most one party may");
                    }
                    String id = "evd_" + UUID.randomUUID();
                    String sha256 = evidenceHash(m.id, req.party(), req.text(), req.links());
                    Map<String, String> meta = new LinkedHashMap<>();
                    meta.put("evidence_id", id);
                    meta.put("party", req.party());
                    meta.put("sha256", sha256);
                    return mandates.transitions(conn, m.id).flatMap(history -> mandateService.disputeEvidence(conn, m,
                            new ArrayList<>(history), req.triggeredBy(), meta, now)).flatMap(row -> {
                                Evidence e = new Evidence(id, m.id, existing.size() + 1, req.party(), req.text(), req.links(),
                                        sha256, req.triggeredBy(), row.id(), now, null, null, null, null);
                                return disputes.insertEvidence(conn, e).map(v -> ApiResult.of(201, DisputeViews.EvidenceView.of(e)));
                            });
                });
            });
        }));
    }

    /** {@code GET /v1/mandates/{id}/dispute}: the case, every side's evidence in order, the deadline and the outcome. */
    public Uni<DisputeViews.CaseView> dispute(String partnerId, String mandateId) {
        return pool.withConnection(conn -> mandates.find(conn, mandateId, partnerId).flatMap(m -> {
            if (m == null) {
                throw notFound();
            }
            return disputes.find(conn, m.id).flatMap(c -> {
                if (c == null) {
                    throw ApiException.notFound("no_dispute", "this mandate was never disputed");
                }
                return disputes.evidence(conn, m.id).flatMap(evidence -> held(conn, m).map(held -> caseView(m, c, evidence, held)));
            });
        }));
    }

    /** {@code POST /admin/v1/disputes/{id}/resolve}: the arbiter's split of what is held, which must add up to it. */
    public Uni<DisputeViews.Resolved> resolve(String mandateId, BigInteger toCounterparty, BigInteger toProposer, String note) {
        return pool.withTransaction(conn -> mandates.lockAny(conn, mandateId).flatMap(m -> {
            if (m == null) {
                throw notFound();
            }
            return disputes.find(conn, m.id).flatMap(c -> {
                requireOpen(m, c);
                requireFrozen(m);
                return held(conn, m).flatMap(held -> {
                    if (!toCounterparty.add(toProposer).equals(held)) {
                        throw new SumMismatch(Usdc.text(toCounterparty), Usdc.text(toProposer), Usdc.text(held));
                    }
                    Instant now = Times.now();
                    return settle(conn, m, DisputeCase.ARBITER, toCounterparty, toProposer, note, ARBITER, now)
                            .map(done -> new DisputeViews.Resolved(m.id, m.state.wire(),
                                    DisputeViews.ResolutionView.of(done.resolved()), MandateViews.view(m, done.history())));
                });
            });
        }));
    }

    /**
     * Resolves, in one transaction, up to a batch of disputes past their deadline: everything held goes back to the
     * funder ({@code to_proposer}), outcome {@code deadline_refund}, {@code triggered_by: system}. Answers how many.
     */
    public Uni<Integer> resolveDue() {
        Instant now = Times.now();
        return pool.withTransaction(conn -> disputes.lockDue(conn, now, config.batchSize()).flatMap(due -> {
            java.util.concurrent.atomic.AtomicInteger resolved = new java.util.concurrent.atomic.AtomicInteger();
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (DisputeRepository.Due d : due) {
                chain = chain.flatMap(v -> mandates.lock(conn, d.mandateId(), d.partnerId()).flatMap(m -> disputes.find(conn, m.id)
                        .flatMap(c -> {
                            if (m.state != MandateState.DISPUTED || c == null || !c.open() || now.isBefore(c.deadlineAt())) {
                                return Uni.createFrom().voidItem();
                            }
                            if (!frozenOrEmpty(m)) {
                                LOG.warnf("dispute of %s is past its deadline, but its escrow is %s, not frozen yet: the refund waits",
                                        m.id, m.escrow.state());
                                return Uni.createFrom().voidItem();
                            }
                            return held(conn, m).flatMap(held -> settle(conn, m, DisputeCase.DEADLINE_REFUND, BigInteger.ZERO,
                                    held, "the dispute was not resolved by its deadline " + ApiJson.time(c.deadlineAt())
                                            + ": everything held goes back to the funder", MandateService.SYSTEM, now))
                                    .invoke(done -> resolved.incrementAndGet()).replaceWithVoid();
                        })));
            }
            // only what was resolved counts: a batch of disputes that must wait (escrow not frozen yet) ends the run
            return chain.map(v -> resolved.get());
        }));
    }

    /** A resolution written: the case as it now reads and the mandate's transitions with the new row. */
    record Settled(DisputeCase resolved, List<Transition> history) {
    }

    /** The {@code resolved} transition (its event, anchored) and the case's resolution, on the locked mandate. */
    private Uni<Settled> settle(SqlConnection conn, Mandate m, String outcome, BigInteger toCounterparty, BigInteger toProposer,
            String note, String triggeredBy, Instant now) {
        Map<String, String> meta = new LinkedHashMap<>();
        meta.put("outcome", outcome);
        meta.put("to_counterparty", Usdc.text(toCounterparty));
        meta.put("to_proposer", Usdc.text(toProposer));
        if (note != null) {
            meta.put("note", note);
        }
        return mandates.transitions(conn, m.id).flatMap(ts -> {
            List<Transition> history = new ArrayList<>(ts);
            return mandateService.resolveDispute(conn, m, history, triggeredBy, meta, now)
                    .flatMap(row -> escrow.resolve(conn, m, toCounterparty, toProposer, now).replaceWith(row))
                    .flatMap(row -> disputes.resolve(conn, m.id, outcome, toCounterparty, toProposer, note, now, row.id()))
                    .invoke(n -> {
                        if (n != 1) {
                            throw new IllegalStateException("dispute of " + m.id + " was not open under the mandate's lock");
                        }
                    })
                    .flatMap(n -> disputes.find(conn, m.id)).map(c -> new Settled(c, history));
        });
    }

    /**
     * What a resolution splits: the escrow's held amount when the mandate is funded in escrow; without escrow the
     * platform holds nothing for the mandate (its charges are invoices paid directly), so 0.
     */
    Uni<BigInteger> held(SqlConnection conn, Mandate m) {
        return Uni.createFrom().item(dev.agentpay.mandate.escrow.service.EscrowService.held(m));
    }

    /** Whether the mandate's escrow can be resolved now: frozen on chain, or holding nothing (or no escrow at all). */
    private static boolean frozenOrEmpty(Mandate m) {
        return m.escrow == null || !m.escrow.holding()
                || dev.agentpay.mandate.escrow.domain.EscrowState.FROZEN.equals(m.escrow.state());
    }

    /** 409 {@code escrow_not_frozen}: the contract resolves only a frozen escrow, and the freeze is not confirmed yet. */
    private static void requireFrozen(Mandate m) {
        if (!frozenOrEmpty(m)) {
            throw ApiException.conflict("escrow_not_frozen", "the mandate's escrow on " + m.escrow.chain() + " is "
                    + m.escrow.state() + ": the freeze sent when the dispute opened is not confirmed on chain yet; retry shortly");
        }
    }

    private static DisputeViews.CaseView caseView(Mandate m, DisputeCase c, List<Evidence> evidence, BigInteger held) {
        List<DisputeViews.SideView> sides = new ArrayList<>();
        for (Party p : m.signers()) {
            sides.add(new DisputeViews.SideView(p.role, p.id, evidence.stream().filter(e -> e.party().equals(p.role))
                    .map(DisputeViews.EvidenceView::of).toList()));
        }
        return new DisputeViews.CaseView(m.id, m.state.wire(), c.status(), c.reason(), c.openedBy(), ApiJson.time(c.openedAt()),
                ApiJson.time(c.deadlineAt()), "refund_funder", Usdc.text(held),
                dev.agentpay.mandate.escrow.domain.EscrowView.of(m.escrow), sides, DisputeViews.ResolutionView.of(c));
    }

    private static void requireOpen(Mandate m, DisputeCase c) {
        if (m.state != MandateState.DISPUTED || c == null || !c.open()) {
            throw ApiException.conflict("dispute_not_open", "mandate is " + m.state.wire() + ": "
                    + (m.state == MandateState.RESOLVED ? "its dispute was resolved" : "it has no open dispute"));
        }
    }

    /**
     * {@code 0x} + SHA-256 hex of the UTF-8 bytes of {@code JSON.stringify({links, mandate_id, party, text})} (those keys,
     * in that order, which is also their sorted order; JavaScript's escapes: {@link CanonicalJson}).
     */
    public static String evidenceHash(String mandateId, String party, String text, List<String> links) {
        ObjectNode o = ApiJson.MAPPER.createObjectNode();
        ArrayNode a = o.putArray("links");
        links.forEach(a::add);
        o.put("mandate_id", mandateId);
        o.put("party", party);
        o.put("text", text);
        byte[] bytes = CanonicalJson.canonicalObject(o).getBytes(StandardCharsets.UTF_8);
        try {
            return "0x" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static ApiException notFound() {
        return ApiException.notFound("mandate_not_found", "no such mandate");
    }
}
