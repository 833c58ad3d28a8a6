package dev.agentpay.mandate.mandates.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.commons.outbox.Outbox;
import dev.agentpay.commons.sql.Times;
import dev.agentpay.mandate.config.ApiJson;
import dev.agentpay.mandate.config.MandateConfig;
import dev.agentpay.mandate.idempotency.domain.ApiResult;
import dev.agentpay.mandate.idempotency.service.IdempotencyService;
import dev.agentpay.mandate.mandates.domain.Mandate;
import dev.agentpay.mandate.mandates.domain.MandateState;
import dev.agentpay.mandate.mandates.domain.Party;
import dev.agentpay.mandate.mandates.repository.PartiesColumn;
import dev.agentpay.mandate.signing.MandateParty;
import dev.agentpay.mandate.mandates.domain.Transition;
import dev.agentpay.mandate.mandates.repository.MandateRepository;
import dev.agentpay.mandate.partner.service.PartnerService;
import dev.agentpay.mandate.receipt.domain.Receipt;
import dev.agentpay.mandate.receipt.repository.ReceiptRepository;
import dev.agentpay.mandate.signing.CanonicalMandate;
import dev.agentpay.mandate.signing.Eip712Mandate;
import dev.agentpay.mandate.signing.SignatureScheme;
import dev.agentpay.mandate.signing.WalletParty;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The mandate state machine. Every change locks the mandate row ({@code select ... for update}), checks
 * expiry and state, writes the mandate, its transition row and its {@code mandate.*} event in one
 * transaction; concurrent requests on one mandate therefore apply one after the other.
 */
@ApplicationScoped
public class MandateService {

    public static final String SIGNER_PROPOSER = "proposer";
    public static final String SIGNER_COUNTERPARTY = "counterparty";
    public static final String SYSTEM = "system";

    @Inject
    MandateRepository mandates;

    @Inject
    ReceiptRepository receipts;

    @Inject
    PartnerService partners;

    @Inject
    IdempotencyService idempotency;

    @Inject
    Outbox outbox;

    @Inject
    MandateConfig config;

    @Inject
    dev.agentpay.mandate.budget.repository.BudgetRepository budgets;

    @Inject
    dev.agentpay.mandate.dispute.repository.DisputeRepository disputes;

    @Inject
    dev.agentpay.mandate.dispute.config.DisputeConfig disputeConfig;

    @Inject
    dev.agentpay.mandate.escrow.service.EscrowService escrow;

    /** Event type of a piece of dispute evidence: an anchored row of the mandate that is not a state change. */
    public static final String DISPUTE_EVIDENCE_EVENT = "mandate.dispute_evidence";

    /** A validated creation request; {@code terms} is the JSON object the client sent, numbers exact. */
    public record NewMandate(String proposer, String counterparty, String scope, JsonNode terms, String contextJson,
            Instant expiresAt, SignatureScheme hmacScheme, List<MandateParty> parties,
            dev.agentpay.mandate.budget.domain.BudgetTerms budget) {

        /** The two-party form ({@code proposer}/{@code counterparty}). */
        public NewMandate(String proposer, String counterparty, String scope, JsonNode terms, String contextJson,
                Instant expiresAt, SignatureScheme hmacScheme) {
            this(proposer, counterparty, scope, terms, contextJson, expiresAt, hmacScheme, null, null);
        }
    }

    /** The v0.2 label written on mandates that use a v0.2 signature scheme (wallets or role-bound HMAC). */
    public static final String PROTO_V02 = "0.2";

    public Uni<ApiResult> create(String partnerId, IdempotencyService.Key key, NewMandate req) {
        Instant now = Times.now();
        Instant expiresAt = req.expiresAt().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        if (!expiresAt.isAfter(now)) {
            throw ApiException.invalidField("expiry", "must be in the future");
        }
        if (expiresAt.isAfter(now.plus(config.maxExpiryHorizon()))) {
            throw ApiException.invalidField("expiry", "must be at most " + config.maxExpiryHorizon().toDays()
                    + " days in the future");
        }
        String terms;
        try {
            terms = CanonicalMandate.canonicalTerms(req.terms());
        } catch (IllegalArgumentException e) {
            // the canonicalizer's messages start with "terms ..." and say what to fix
            throw new ApiException(400, "validation_error", e.getMessage());
        }
        Mandate m = new Mandate();
        m.id = "mnd_" + UUID.randomUUID();
        m.partnerId = partnerId;
        m.scope = req.scope();
        m.terms = terms;
        m.context = req.contextJson();
        m.state = MandateState.PROPOSED;
        m.expiresAt = expiresAt;
        m.budget = req.budget();
        m.budgetLedger = m.budget == null ? null : new dev.agentpay.mandate.budget.domain.BudgetLedger(
                m.budget.amountAtomic(), m.budget.periodDuration(), null, java.math.BigInteger.ZERO, java.math.BigInteger.ZERO);
        if (req.parties() != null) {
            assignParties(m, req.parties(), req.hmacScheme());
        } else {
            m.proposerAgentId = req.proposer();
            m.counterpartyAgentId = req.counterparty();
            assignSchemes(m, req.hmacScheme());
        }
        m.protoVersion = !m.partiesForm() && m.proposerScheme == SignatureScheme.HMAC
                && m.counterpartyScheme == SignatureScheme.HMAC ? config.protoVersion() : PROTO_V02;
        m.protoMandateHash = m.hasWalletParty()
                ? "0x" + java.util.HexFormat.of().formatHex(MandateSignatures.walletDigest(m))
                : CanonicalMandate.mandateHash(MandateSignatures.signingBytes(m));
        m.createdAt = now;
        m.updatedAt = now;
        // one round trip: the connection runs the pipelined inserts in order, so the transition row and
        // the event follow the mandate row, and a failure of the first fails the transaction
        return idempotency.run(partnerId, key, conn -> Uni.combine().all()
                .unis(mandates.insert(conn, m),
                        m.budget == null ? Uni.createFrom().voidItem() : budgets.insert(conn, m.id, m.budget, now),
                        transition(conn, m, new ArrayList<>(), MandateState.PROPOSED, SIGNER_PROPOSER, Map.of(), now))
                .discardItems()
                .map(v -> {
                    Map<String, Object> data = new LinkedHashMap<>();
                    data.put("mandate_id", m.id);
                    data.put("status", m.state.wire());
                    data.put("proposer_signature_required", true);
                    return ApiResult.of(201, data);
                }));
    }

    /** Accepts a party's signature: the proposer's first, then the counterparty's, which issues the receipt. */
    public Uni<ApiResult> sign(String partnerId, IdempotencyService.Key key, String mandateId, String signer,
            String signature, SignatureScheme claimedScheme) {
        // HMAC signatures are exactly 64 lowercase hex digits (CanonicalMandate.verify), EIP-712 ones 0x + 130 hex
        // digits; anything else fails as 403
        return idempotency.run(partnerId, key, conn -> locked(conn, mandateId, partnerId, (m, history, now) -> {
            if (m.partiesForm()) {
                return signParty(conn, m, history, now, signer, signature, claimedScheme);
            }
            if (!SIGNER_PROPOSER.equals(signer) && !SIGNER_COUNTERPARTY.equals(signer)) {
                throw ApiException.badRequest("invalid_signer", "signer must be \"proposer\" or \"counterparty\"");
            }
            boolean proposer = SIGNER_PROPOSER.equals(signer);
            MandateState required = proposer ? MandateState.PROPOSED : MandateState.SIGNED_BY_PROPOSER;
            if (m.state != required) {
                throw invalidTransition(m, proposer
                        ? "the proposer can sign only a proposed mandate"
                        : "the counterparty can sign only after the proposer (state signed_by_proposer)");
            }
            SignatureScheme scheme = m.scheme(proposer);
            if (claimedScheme != null && claimedScheme != scheme) {
                throw ApiException.badRequest("scheme_mismatch", "the " + signer + " of this mandate signs with "
                        + scheme.wire() + " (fixed at creation), not " + claimedScheme.wire());
            }
            String sig = scheme == SignatureScheme.EIP712 ? Eip712Mandate.normalized(signature) : signature;
            Uni<Void> checked = scheme == SignatureScheme.EIP712
                    ? Uni.createFrom().voidItem().invoke(() -> MandateSignatures.verifyWallet(m, proposer, signature))
                    : partners.signingSecret(conn, partnerId).invoke(secret -> MandateSignatures.verifyHmac(m, signer, scheme, secret, signature))
                            .replaceWithVoid();
            return checked.flatMap(ok -> {
                if (proposer) {
                    m.proposerSignature = sig;
                    m.signedByProposerAt = now;
                    return transition(conn, m, history, MandateState.SIGNED_BY_PROPOSER, signer, Map.of(), now);
                }
                m.counterpartySignature = sig;
                m.signedByCounterpartyAt = now;
                Receipt receipt = new Receipt("drs_" + UUID.randomUUID(), m.id, m.partnerId, m.protoMandateHash,
                        m.proposerSignature, m.counterpartySignature, m.signedByProposerAt, now, now, null);
                m.drsReceiptId = receipt.id();
                return receipts.insert(conn, receipt)
                        .flatMap(v -> transition(conn, m, history, MandateState.SIGNED_BY_BOTH, signer, Map.of(), now));
            }).map(v -> receiptIssued(m));
        }));
    }

    /** Starts the work: {@code signed_by_both} to {@code in_progress}. */
    public Uni<ApiResult> start(String partnerId, IdempotencyService.Key key, String mandateId, String triggeredBy) {
        return idempotency.run(partnerId, key, conn -> locked(conn, mandateId, partnerId, (m, history, now) -> {
            if (!m.state.fullySigned()) {
                throw invalidTransition(m, "only a mandate signed by every party (signed_by_both, signed_by_all) can start");
            }
            return transition(conn, m, history, MandateState.IN_PROGRESS, triggeredBy, Map.of(), now)
                    .map(v -> ApiResult.of(200, stateAnswer(m, history)));
        }));
    }

    /** Completes the mandate; from {@code signed_by_both} it passes through {@code in_progress} in the same call. */
    public Uni<ApiResult> complete(String partnerId, IdempotencyService.Key key, String mandateId, String triggeredBy) {
        return idempotency.run(partnerId, key, conn -> locked(conn, mandateId, partnerId, (m, history, now) -> {
            Uni<Void> step;
            if (m.state.fullySigned()) {
                step = transition(conn, m, history, MandateState.IN_PROGRESS, triggeredBy, Map.of(), now);
            } else if (m.state == MandateState.IN_PROGRESS) {
                step = Uni.createFrom().voidItem();
            } else {
                throw invalidTransition(m, "only a mandate signed by every party or in progress can complete");
            }
            return step.flatMap(v -> {
                m.completedAt = now;
                return transition(conn, m, history, MandateState.COMPLETED, triggeredBy, Map.of(), now);
            }).map(v -> {
                Map<String, Object> data = stateAnswer(m, history);
                data.put("completed_at", ApiJson.time(m.completedAt));
                return ApiResult.of(200, data);
            });
        }));
    }

    /** Disputes a mandate that both parties signed; the reason goes on the mandate and in the transition metadata. */
    public Uni<ApiResult> dispute(String partnerId, IdempotencyService.Key key, String mandateId, String reason,
            String triggeredBy) {
        return idempotency.run(partnerId, key, conn -> locked(conn, mandateId, partnerId, (m, history, now) -> {
            if (!m.state.fullySigned() && m.state != MandateState.IN_PROGRESS) {
                throw invalidTransition(m, "only a mandate signed by every party or in progress can be disputed");
            }
            m.disputeReason = reason;
            m.disputedAt = now;
            // the dispute case (issue 30): open until the arbiter resolves it or its deadline refunds the funder
            var opened = new dev.agentpay.mandate.dispute.domain.DisputeCase(m.id, m.partnerId, reason, triggeredBy, now,
                    now.plus(disputeConfig.deadline()), dev.agentpay.mandate.dispute.domain.DisputeCase.OPEN, null, null, null,
                    null, null, null);
            return transition(conn, m, history, MandateState.DISPUTED, triggeredBy, Map.of("reason", reason), now)
                    .flatMap(v -> disputes.insertCase(conn, opened))
                    // an escrow holding money for the mandate is frozen on chain until the dispute is decided
                    .flatMap(v -> escrow.freeze(conn, m, now))
                    .map(v -> {
                        Map<String, Object> data = stateAnswer(m, history);
                        data.put("dispute_reason", m.disputeReason);
                        data.put("disputed_at", ApiJson.time(m.disputedAt));
                        return ApiResult.of(200, data);
                    });
        }));
    }


    /**
     * Moves a locked live mandate whose expiry has passed to {@code expired}, with its transition and
     * {@code mandate.expired} event; used by the expiry job and by requests that find it late.
     */
    public Uni<Void> expire(SqlConnection conn, Mandate m, Instant now) {
        return mandates.transitions(conn, m.id).flatMap(history ->
                transition(conn, m, new ArrayList<>(history), MandateState.EXPIRED, SYSTEM,
                        Map.of("cause", "expires_at passed", "expires_at", ApiJson.time(m.expiresAt)), now));
    }


    /** A step on a locked mandate with its transitions so far. */
    @FunctionalInterface
    interface Step {
        Uni<ApiResult> apply(Mandate m, List<Transition> history, Instant now);
    }

    /**
     * Locks the mandate and runs {@code step}, unless it is unknown to this partner (404) or expired (409
     * {@code mandate_expired}). A live mandate found past its expiry is expired here and now, and that
     * change commits even though the request is refused.
     */
    private Uni<ApiResult> locked(SqlConnection conn, String mandateId, String partnerId, Step step) {
        return mandates.lock(conn, mandateId, partnerId).flatMap(m -> {
            if (m == null) {
                throw notFound();
            }
            Instant now = Times.now();
            if (m.state == MandateState.EXPIRED) {
                throw expired(m);
            }
            if (m.state.expirable() && m.pastExpiry(now)) {
                return expire(conn, m, now).replaceWith(ApiResult.refusedAfterCommit(expired(m)));
            }
            return mandates.transitions(conn, m.id).flatMap(ts -> step.apply(m, new ArrayList<>(ts), now));
        });
    }

    /**
     * The end of a dispute (issue 30): {@code disputed -> resolved} on the locked mandate, its row (metadata
     * {@code triggered_by} plus {@code extra}) and its {@code mandate.dispute_resolved} event; answers the new row.
     */
    public Uni<Transition> resolveDispute(SqlConnection conn, Mandate m, List<Transition> history, String triggeredBy,
            Map<String, String> extra, Instant now) {
        return transition(conn, m, history, MandateState.RESOLVED, triggeredBy, extra, now)
                .map(v -> history.get(history.size() - 1));
    }

    /**
     * A piece of dispute evidence, anchored like a transition (issue 30): a row {@code disputed -> disputed} on the
     * locked disputed mandate with metadata {@code triggered_by} plus {@code extra}, and its
     * {@code mandate.dispute_evidence} event, which anchor-service anchors as it anchors every row after creation. Not a
     * state change (not in {@link MandateState#TRANSITIONS}); answers the new row.
     */
    public Uni<Transition> disputeEvidence(SqlConnection conn, Mandate m, List<Transition> history, String triggeredBy,
            Map<String, String> extra, Instant now) {
        if (m.state != MandateState.DISPUTED) {
            throw new IllegalStateException("mandate " + m.id + " is " + m.state.wire() + ": evidence needs an open dispute");
        }
        return write(conn, m, history, MandateState.DISPUTED, triggeredBy, extra, now, DISPUTE_EVIDENCE_EVENT)
                .map(v -> history.get(history.size() - 1));
    }

    /** Writes the new state, its transition row and its event; appends the row to {@code history}. */
    private Uni<Void> transition(SqlConnection conn, Mandate m, List<Transition> history, MandateState to,
            String triggeredBy, Map<String, String> extra, Instant now) {
        MandateState from = history.isEmpty() ? null : m.state;
        if (!MandateState.allowed(from, to)) {
            // a programming error, never a client's: every move the service makes is in the published table
            throw new IllegalStateException("mandate " + m.id + ": " + from + " -> " + to + " is not in MandateState.TRANSITIONS");
        }
        return write(conn, m, history, to, triggeredBy, extra, now, to.eventType());
    }

    /** The row, the mandate's new state and the event of type {@code eventType}, pipelined in this order. */
    private Uni<Void> write(SqlConnection conn, Mandate m, List<Transition> history, MandateState to,
            String triggeredBy, Map<String, String> extra, Instant now, String eventType) {
        MandateState from = history.isEmpty() ? null : m.state;
        ObjectNode meta = ApiJson.MAPPER.createObjectNode();
        meta.put("triggered_by", triggeredBy);
        extra.forEach(meta::put);
        Transition t = new Transition(UUID.randomUUID(), m.id, history.size() + 1, from, to, ApiJson.write(meta),
                null, null, null, null, now, null, null);
        m.state = to;
        m.updatedAt = now;
        history.add(t);
        Uni<Void> write = from == null ? Uni.createFrom().voidItem() : mandates.updateState(conn, m);
        JsonNode row = EventCodec.mapper().valueToTree(MandateViews.view(m, history));
        MandateEvent event = new MandateEvent(EventHeader.of(eventType, m.id, m.partnerId, now,
                MandateEvent.SCHEMA_VERSION), t.id().toString(), from == null ? null : from.wire(), to.wire(),
                m.protoMandateHash, row);
        // pipelined on the connection, executed in this order
        return Uni.combine().all().unis(write, mandates.insertTransition(conn, t), outbox.append(conn, event))
                .discardItems();
    }

    private static Map<String, Object> stateAnswer(Mandate m, List<Transition> history) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("mandate_id", m.id);
        data.put("status", m.state.wire());
        data.put("mandate", MandateViews.view(m, history));
        return data;
    }


    /**
     * Fixes each party's scheme: a party written as a CAIP-10 {@code eip155} account is a wallet and signs with
     * EIP-712; any other party signs with {@code hmacScheme} ({@code hmac} unless the request chose
     * {@code hmac-role}). A wallet mandate records the EIP-712 domain in force.
     */
    private void assignSchemes(Mandate m, SignatureScheme hmacScheme) {
        WalletParty proposer = MandateSignatures.wallet("proposer", m.proposerAgentId);
        WalletParty counterparty = MandateSignatures.wallet("counterparty", m.counterpartyAgentId);
        SignatureScheme other = hmacScheme == null ? SignatureScheme.HMAC : hmacScheme;
        m.proposerScheme = proposer != null ? SignatureScheme.EIP712 : other;
        m.counterpartyScheme = counterparty != null ? SignatureScheme.EIP712 : other;
        if (proposer != null && counterparty != null && proposer.address().equals(counterparty.address())) {
            throw ApiException.invalidField("counterparty", "must be another wallet than the proposer's");
        }
        requireWalletDomain(m);
    }

    /**
     * The parties form: each party's scheme (a CAIP-10 {@code eip155} account is a wallet and signs with EIP-712,
     * any other id with {@code hmacScheme}), roles and ids unique (a wallet address at most once, however written).
     * The proposer fields mirror the first party (it signs first); the counterparty fields stay null.
     */
    private void assignParties(Mandate m, List<MandateParty> parties, SignatureScheme hmacScheme) {
        SignatureScheme other = hmacScheme == null ? SignatureScheme.HMAC : hmacScheme;
        Map<String, Integer> roles = new java.util.HashMap<>();
        Map<String, Integer> ids = new java.util.HashMap<>();
        Map<String, Integer> wallets = new java.util.HashMap<>();
        List<Party> out = new ArrayList<>();
        for (int i = 0; i < parties.size(); i++) {
            MandateParty p = parties.get(i);
            String at = "parties[" + i + "]";
            Integer role = roles.putIfAbsent(p.role(), i);
            if (role != null) {
                throw ApiException.invalidField(at + ".role", "must be unique: parties[" + role + "] has the role \""
                        + p.role() + "\" too");
            }
            Integer id = ids.putIfAbsent(p.id(), i);
            if (id != null) {
                throw ApiException.invalidField(at + ".id", "must be unique: parties[" + id + "] has the same id");
            }
            WalletParty w = MandateSignatures.wallet(at + ".id", p.id());
            if (w != null) {
                Integer same = wallets.putIfAbsent(w.address(), i);
                if (same != null) {
                    throw ApiException.invalidField(at + ".id", "must be another wallet than parties[" + same
                            + "]'s (the same address " + w.address() + ")");
                }
            }
            out.add(new Party(p.id(), p.role(), w != null ? SignatureScheme.EIP712 : other, null, null));
        }
        m.parties = out;
        m.proposerAgentId = out.get(0).id;
        m.proposerScheme = out.get(0).scheme;
        m.counterpartyAgentId = null;
        m.counterpartyScheme = null;
        requireWalletDomain(m);
    }

    /**
     * A signature on a mandate in the parties form: the parties sign in the order given at creation, each with
     * its own scheme. The first signature moves the mandate to {@code signed_by_proposer}, the following ones to
     * {@code partially_signed} while some party has not signed, the last to {@code signed_by_all}
     * ({@code signed_by_both} with two parties), which issues the receipt.
     */
    private Uni<ApiResult> signParty(SqlConnection conn, Mandate m, List<Transition> history, Instant now, String signer,
            String signature, SignatureScheme claimedScheme) {
        List<Party> parties = m.parties;
        int at = -1;
        int next = parties.size();
        for (int i = parties.size() - 1; i >= 0; i--) {
            if (parties.get(i).role.equals(signer)) {
                at = i;
            }
            if (!parties.get(i).signed()) {
                next = i;
            }
        }
        if (at < 0) {
            throw ApiException.badRequest("invalid_signer", "signer must be one of this mandate's roles: "
                    + String.join(", ", parties.stream().map(p -> p.role).toList()));
        }
        if (!m.state.collectingSignatures() || at != next) {
            throw invalidTransition(m, next >= parties.size() || !m.state.collectingSignatures()
                    ? "no party can sign any more"
                    : parties.get(at).signed()
                            ? "\"" + signer + "\" has signed already; the next signer is \"" + parties.get(next).role + "\""
                            : "the parties sign in the order of the mandate: the next signer is \"" + parties.get(next).role
                                    + "\", not \"" + signer + "\"");
        }
        Party party = parties.get(at);
        if (claimedScheme != null && claimedScheme != party.scheme) {
            throw ApiException.badRequest("scheme_mismatch", "the " + signer + " of this mandate signs with "
                    + party.scheme.wire() + " (fixed at creation), not " + claimedScheme.wire());
        }
        boolean wallet = party.scheme == SignatureScheme.EIP712;
        String sig = wallet ? signature.toLowerCase(java.util.Locale.ROOT) : signature;
        Uni<Void> checked = wallet
                ? Uni.createFrom().voidItem().invoke(() -> verifyPartyWallet(m, party, signature))
                : partners.signingSecret(conn, m.partnerId)
                        .invoke(secret -> MandateSignatures.verifyHmac(m, signer, party.scheme, secret, signature)).replaceWithVoid();
        int index = at;
        return checked.flatMap(ok -> {
            party.signature = sig;
            party.signedAt = now;
            if (index == 0) {
                m.proposerSignature = sig;
                m.signedByProposerAt = now;
            }
            boolean last = index == parties.size() - 1;
            MandateState to = index == 0 ? MandateState.SIGNED_BY_PROPOSER
                    : !last ? MandateState.PARTIALLY_SIGNED
                    : parties.size() == 2 ? MandateState.SIGNED_BY_BOTH : MandateState.SIGNED_BY_ALL;
            if (!last) {
                return transition(conn, m, history, to, signer, Map.of(), now);
            }
            Receipt receipt = new Receipt("drs_" + UUID.randomUUID(), m.id, m.partnerId, m.protoMandateHash,
                    m.proposerSignature, null, m.signedByProposerAt, null, now, PartiesColumn.write(parties));
            m.drsReceiptId = receipt.id();
            return receipts.insert(conn, receipt).flatMap(v -> transition(conn, m, history, to, signer, Map.of(), now));
        }).map(v -> receiptIssued(m));
    }

    /** The answer of the signature that completed a mandate: its new state and the receipt it issued. */
    private static ApiResult receiptIssued(Mandate m) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("mandate_id", m.id);
        data.put("status", m.state.wire());
        data.put("drs_receipt_id", m.drsReceiptId);
        return ApiResult.of(200, data);
    }

    private static void verifyPartyWallet(Mandate m, Party party, String signature) {
        WalletParty w = WalletParty.parse(party.id);
        String recovered;
        try {
            recovered = Eip712Mandate.recover(MandateSignatures.walletDigest(m), signature);
        } catch (IllegalArgumentException e) {
            throw ApiException.forbidden("invalid_signature", e.getMessage());
        }
        if (!recovered.equals(w.address())) {
            throw ApiException.forbidden("invalid_signature", "signature recovers " + recovered + ", not the address "
                    + w.address() + " of the party \"" + party.role + "\" (signed another mandate, domain or chain, or by "
                    + "another key)");
        }
    }

    /** A mandate with a wallet party records the EIP-712 domain in force (503 when none is configured). */
    private void requireWalletDomain(Mandate m) {
        if (m.hasWalletParty()) {
            String contract = config.eip712().verifyingContract().map(String::trim).filter(c -> !c.isEmpty())
                    .orElseThrow(() -> new ApiException(503, "wallet_signing_unavailable",
                            "this deployment has no anchor contract configured, so wallet (EIP-712) parties are unavailable"));
            m.eip712ChainId = config.eip712().chainId();
            m.eip712Contract = contract.toLowerCase(java.util.Locale.ROOT);
        }
    }


    private static ApiException notFound() {
        return ApiException.notFound("mandate_not_found", "no such mandate");
    }

    private static ApiException expired(Mandate m) {
        return ApiException.conflict("mandate_expired", "mandate expired at " + ApiJson.time(m.expiresAt));
    }

    private static ApiException invalidTransition(Mandate m, String why) {
        return ApiException.conflict("invalid_transition", "mandate is " + m.state.wire() + ": " + why);
    }
}
