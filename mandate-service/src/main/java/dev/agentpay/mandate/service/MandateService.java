package dev.agentpay.mandate.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.commons.outbox.Outbox;
import dev.agentpay.mandate.config.MandateConfig;
import dev.agentpay.mandate.domain.Mandate;
import dev.agentpay.mandate.domain.MandateProof;
import dev.agentpay.mandate.domain.MandateState;
import dev.agentpay.mandate.domain.MandateView;
import dev.agentpay.mandate.domain.PublicMandateView;
import dev.agentpay.mandate.domain.Receipt;
import dev.agentpay.mandate.domain.ReceiptView;
import dev.agentpay.mandate.domain.Transition;
import dev.agentpay.mandate.repository.MandateRepository;
import dev.agentpay.mandate.repository.ReceiptRepository;
import dev.agentpay.commons.sql.Times;
import dev.agentpay.mandate.signing.CanonicalMandate;
import dev.agentpay.mandate.signing.Eip712Mandate;
import dev.agentpay.mandate.signing.SignatureScheme;
import dev.agentpay.mandate.signing.WalletParty;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
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
    Pool pool;

    @Inject
    MandateConfig config;

    /** A validated creation request; {@code terms} is the JSON object the client sent, numbers exact. */
    public record NewMandate(String proposer, String counterparty, String scope, JsonNode terms, String contextJson,
            Instant expiresAt, SignatureScheme hmacScheme) {
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
        m.proposerAgentId = req.proposer();
        m.counterpartyAgentId = req.counterparty();
        m.scope = req.scope();
        m.terms = terms;
        m.context = req.contextJson();
        m.state = MandateState.PROPOSED;
        m.expiresAt = expiresAt;
        assignSchemes(m, req.hmacScheme());
        m.protoVersion = m.proposerScheme == SignatureScheme.HMAC && m.counterpartyScheme == SignatureScheme.HMAC
                ? config.protoVersion() : PROTO_V02;
        m.protoMandateHash = m.hasWalletParty()
                ? Eip712Mandate.digestHex(domain(m), eip712Message(m))
                : CanonicalMandate.mandateHash(signingBytes(m));
        m.createdAt = now;
        m.updatedAt = now;
        // one round trip: the connection runs the pipelined inserts in order, so the transition row and
        // the event follow the mandate row, and a failure of the first fails the transaction
        return idempotency.run(partnerId, key, conn -> Uni.combine().all()
                .unis(mandates.insert(conn, m),
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
            String sig = scheme == SignatureScheme.EIP712 ? signature.toLowerCase(java.util.Locale.ROOT) : signature;
            Uni<Void> checked = scheme == SignatureScheme.EIP712
                    ? Uni.createFrom().voidItem().invoke(() -> verifyWallet(m, proposer, signature))
                    : partners.signingSecret(conn, partnerId).invoke(secret -> verifyHmac(m, signer, scheme, secret, signature))
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
                        m.proposerSignature, m.counterpartySignature, m.signedByProposerAt, now, now);
                m.drsReceiptId = receipt.id();
                return receipts.insert(conn, receipt)
                        .flatMap(v -> transition(conn, m, history, MandateState.SIGNED_BY_BOTH, signer, Map.of(), now));
            }).map(v -> {
                Map<String, Object> data = new LinkedHashMap<>();
                data.put("mandate_id", m.id);
                data.put("status", m.state.wire());
                data.put("drs_receipt_id", m.drsReceiptId);
                return ApiResult.of(200, data);
            });
        }));
    }

    /** Starts the work: {@code signed_by_both} to {@code in_progress}. */
    public Uni<ApiResult> start(String partnerId, IdempotencyService.Key key, String mandateId, String triggeredBy) {
        return idempotency.run(partnerId, key, conn -> locked(conn, mandateId, partnerId, (m, history, now) -> {
            if (m.state != MandateState.SIGNED_BY_BOTH) {
                throw invalidTransition(m, "only a mandate signed by both parties can start");
            }
            return transition(conn, m, history, MandateState.IN_PROGRESS, triggeredBy, Map.of(), now)
                    .map(v -> ApiResult.of(200, stateAnswer(m, history)));
        }));
    }

    /** Completes the mandate; from {@code signed_by_both} it passes through {@code in_progress} in the same call. */
    public Uni<ApiResult> complete(String partnerId, IdempotencyService.Key key, String mandateId, String triggeredBy) {
        return idempotency.run(partnerId, key, conn -> locked(conn, mandateId, partnerId, (m, history, now) -> {
            Uni<Void> step;
            if (m.state == MandateState.SIGNED_BY_BOTH) {
                step = transition(conn, m, history, MandateState.IN_PROGRESS, triggeredBy, Map.of(), now);
            } else if (m.state == MandateState.IN_PROGRESS) {
                step = Uni.createFrom().voidItem();
            } else {
                throw invalidTransition(m, "only a mandate signed by both parties or in progress can complete");
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
            if (m.state != MandateState.SIGNED_BY_BOTH && m.state != MandateState.IN_PROGRESS) {
                throw invalidTransition(m, "only a mandate signed by both parties or in progress can be disputed");
            }
            m.disputeReason = reason;
            m.disputedAt = now;
            return transition(conn, m, history, MandateState.DISPUTED, triggeredBy, Map.of("reason", reason), now)
                    .map(v -> {
                        Map<String, Object> data = stateAnswer(m, history);
                        data.put("dispute_reason", m.disputeReason);
                        data.put("disputed_at", ApiJson.time(m.disputedAt));
                        return ApiResult.of(200, data);
                    });
        }));
    }

    public Uni<MandateView> get(String partnerId, String mandateId) {
        return pool.withConnection(conn -> mandates.find(conn, mandateId, partnerId).flatMap(m -> {
            if (m == null) {
                throw notFound();
            }
            return mandates.transitions(conn, m.id).map(ts -> view(m, ts));
        }));
    }

    /**
     * A page of the partner's mandates, newest first, optionally of one state ({@code GET /v1/mandates}); the cursor is
     * the keyset position of the last item (its creation time and id), opaque to clients.
     */
    public Uni<dev.agentpay.mandate.domain.MandatePage> list(String partnerId, int limit, String cursor, MandateState state) {
        Instant beforeAt = null;
        String beforeId = null;
        if (cursor != null && !cursor.isBlank()) {
            try {
                String[] p = new String(java.util.Base64.getUrlDecoder().decode(cursor.trim()), java.nio.charset.StandardCharsets.UTF_8)
                        .split(" ", 2);
                beforeAt = Instant.parse(p[0]);
                beforeId = p[1];
            } catch (RuntimeException e) {
                throw ApiException.badRequest("validation_error", "cursor: is not a cursor returned by this API");
            }
        }
        return mandates.page(pool, partnerId, state, beforeAt, beforeId, limit + 1).map(rows -> {
            boolean more = rows.size() > limit;
            List<Mandate> page = more ? rows.subList(0, limit) : rows;
            String next = null;
            if (more) {
                Mandate last = page.get(page.size() - 1);
                next = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                        (last.createdAt + " " + last.id).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            return new dev.agentpay.mandate.domain.MandatePage(page.stream().map(m -> view(m, null)).toList(), next);
        });
    }

    public Uni<PublicMandateView> publicView(String mandateId) {
        return pool.withConnection(conn -> mandates.findAny(conn, mandateId).flatMap(m -> {
            if (m == null) {
                throw notFound();
            }
            return mandates.transitions(conn, m.id).map(ts -> {
                String anchor = null;
                for (Transition t : ts) {
                    if (t.anchorTxHash() != null) {
                        anchor = t.anchorTxHash();
                    }
                }
                String status = ts.isEmpty() ? Transition.ANCHOR_NONE : ts.get(ts.size() - 1).anchorStatus();
                return new PublicMandateView(m.id, m.state.wire(), m.protoMandateHash, anchor, status,
                        ApiJson.time(m.createdAt),
                        List.of(new PublicMandateView.Party(SIGNER_PROPOSER, m.proposerAgentId,
                                        ApiJson.time(m.signedByProposerAt), m.proposerScheme.wire()),
                                new PublicMandateView.Party(SIGNER_COUNTERPARTY, m.counterpartyAgentId,
                                        ApiJson.time(m.signedByCounterpartyAt), m.counterpartyScheme.wire())));
            });
        }));
    }

    /**
     * The proof anyone holding the id may read: the signed content, each signature with its scheme (and for
     * wallets the address it recovers), and every anchored transition. Transitions whose receipt has not
     * arrived yet are left out; {@code state} says how far the mandate went.
     */
    public Uni<MandateProof> proof(String mandateId) {
        return pool.withConnection(conn -> mandates.findAny(conn, mandateId).flatMap(m -> {
            if (m == null) {
                throw notFound();
            }
            return mandates.transitions(conn, m.id).map(ts -> {
                List<MandateProof.Signature> sigs = new ArrayList<>();
                sigs.add(proofSignature(m, true));
                sigs.add(proofSignature(m, false));
                List<MandateProof.Anchor> anchors = ts.stream().filter(t -> t.anchorTxHash() != null)
                        .map(t -> new MandateProof.Anchor(t.toState().wire(), t.anchorChainId(), t.anchorContract(),
                                t.anchorTxHash(), t.anchorBlockNumber(), t.anchorLogIndex()))
                        .toList();
                List<MandateProof.PendingAnchor> pending = ts.stream()
                        .filter(t -> Transition.ANCHOR_PENDING.equals(t.anchorStatus()))
                        .map(t -> new MandateProof.PendingAnchor(t.toState().wire(), t.id().toString(), t.anchorStatus()))
                        .toList();
                return new MandateProof(MandateProof.FORMAT, m.id, m.state.wire(), m.protoVersion,
                        m.hasWalletParty() ? "eip712" : "sha256-canonical", m.protoMandateHash,
                        m.hasWalletParty() ? Eip712Mandate.typedData(domain(m), eip712Message(m)) : null,
                        new String(signingBytes(m), java.nio.charset.StandardCharsets.UTF_8), m.terms, sigs, anchors,
                        Transition.overallAnchorStatus(ts), pending);
            });
        }));
    }

    private static MandateProof.Signature proofSignature(Mandate m, boolean proposer) {
        SignatureScheme scheme = m.scheme(proposer);
        String sig = proposer ? m.proposerSignature : m.counterpartySignature;
        String recovered = null;
        if (scheme == SignatureScheme.EIP712 && sig != null) {
            recovered = Eip712Mandate.recover(Eip712Mandate.digest(domain(m), eip712Message(m)), sig);
        }
        return new MandateProof.Signature(proposer ? SIGNER_PROPOSER : SIGNER_COUNTERPARTY,
                proposer ? m.proposerAgentId : m.counterpartyAgentId, scheme.wire(), sig, recovered,
                ApiJson.time(proposer ? m.signedByProposerAt : m.signedByCounterpartyAt), scheme.publiclyVerifiable(),
                scheme.roleBound());
    }

    public Uni<ReceiptView> receipt(String partnerId, String receiptId) {
        return pool.withConnection(conn -> receipts.find(conn, receiptId, partnerId).flatMap(r -> {
            if (r == null) {
                throw ApiException.notFound("receipt_not_found", "no such receipt");
            }
            return mandates.transitions(conn, r.mandateId()).map(ts -> {
                String anchor = null;
                for (Transition t : ts) {
                    if (t.toState() == MandateState.SIGNED_BY_BOTH) {
                        anchor = t.anchorTxHash();
                    }
                }
                return new ReceiptView(r.id(), r.mandateId(), r.mandateHash(), r.proposerSignature(),
                        r.counterpartySignature(), ApiJson.time(r.signedByProposerAt()),
                        ApiJson.time(r.signedByCounterpartyAt()), ApiJson.time(r.issuedAt()), anchor);
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

    /**
     * Records anchor-service's receipt on the transition it anchors and, when that changed a row, writes
     * {@code mandate.anchored} to the outbox in the same transaction: the webhook that tells a client the
     * {@code anchor_tx_hash} it saw as null (anchor_status {@code pending}) is now set. The event carries the
     * full Mandate row as it now reads, {@code transitionId} and {@code toState} of the anchored transition,
     * and no {@code fromState} (not a state change; anchor-service never anchors it).
     *
     * @return the rows changed: 0 for an unknown transition, another mandate's, or the creation row
     */
    public Uni<Integer> applyAnchor(SqlClient tx, UUID transitionId, String mandateId, String txHash, long blockNumber,
            long chainId, int logIndex, String contract, Instant now) {
        return mandates.anchor(tx, transitionId, mandateId, txHash, blockNumber, chainId, logIndex, contract, now)
                .flatMap(n -> n == 0 ? Uni.createFrom().item(n)
                        : mandates.findAny(tx, mandateId).flatMap(m -> mandates.transitions(tx, mandateId).flatMap(ts -> {
                            Transition anchored = ts.stream().filter(t -> t.id().equals(transitionId)).findFirst()
                                    .orElseThrow();
                            JsonNode row = EventCodec.mapper().valueToTree(view(m, ts));
                            MandateEvent event = new MandateEvent(EventHeader.of(MandateEvent.ANCHORED, m.id,
                                    m.partnerId, now, MandateEvent.SCHEMA_VERSION), transitionId.toString(), null,
                                    anchored.toState().wire(), m.protoMandateHash, row);
                            return outbox.append(tx, event).replaceWith(n);
                        })));
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
            if (!m.state.terminal() && m.pastExpiry(now)) {
                return expire(conn, m, now).replaceWith(ApiResult.refusedAfterCommit(expired(m)));
            }
            return mandates.transitions(conn, m.id).flatMap(ts -> step.apply(m, new ArrayList<>(ts), now));
        });
    }

    /** Writes the new state, its transition row and its event; appends the row to {@code history}. */
    private Uni<Void> transition(SqlConnection conn, Mandate m, List<Transition> history, MandateState to,
            String triggeredBy, Map<String, String> extra, Instant now) {
        MandateState from = history.isEmpty() ? null : m.state;
        if (!MandateState.allowed(from, to)) {
            // a programming error, never a client's: every move the service makes is in the published table
            throw new IllegalStateException("mandate " + m.id + ": " + from + " -> " + to + " is not in MandateState.TRANSITIONS");
        }
        ObjectNode meta = ApiJson.MAPPER.createObjectNode();
        meta.put("triggered_by", triggeredBy);
        extra.forEach(meta::put);
        Transition t = new Transition(UUID.randomUUID(), m.id, history.size() + 1, from, to, ApiJson.write(meta),
                null, null, null, null, now, null, null);
        m.state = to;
        m.updatedAt = now;
        history.add(t);
        Uni<Void> write = from == null ? Uni.createFrom().voidItem() : mandates.updateState(conn, m);
        JsonNode row = EventCodec.mapper().valueToTree(view(m, history));
        MandateEvent event = new MandateEvent(EventHeader.of(to.eventType(), m.id, m.partnerId, now,
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
        data.put("mandate", view(m, history));
        return data;
    }

    static byte[] signingBytes(Mandate m) {
        return CanonicalMandate.bytes(m.counterpartyAgentId, m.expiresAt, m.id, m.proposerAgentId, m.scope, m.terms);
    }

    /** What an {@code hmac} or {@code hmac-role} party signs. */
    static byte[] hmacBytes(Mandate m, String role, SignatureScheme scheme) {
        return CanonicalMandate.bytes(m.counterpartyAgentId, m.expiresAt, m.id, m.proposerAgentId, m.scope,
                scheme == SignatureScheme.HMAC_ROLE ? role : null, m.terms);
    }

    static Eip712Mandate.Domain domain(Mandate m) {
        return new Eip712Mandate.Domain(m.eip712ChainId, m.eip712Contract);
    }

    static Eip712Mandate.Message eip712Message(Mandate m) {
        return Eip712Mandate.message(m.id, m.proposerAgentId, m.counterpartyAgentId, m.scope, m.terms,
                CanonicalMandate.isoMillis(m.expiresAt), m.protoVersion);
    }

    /**
     * Fixes each party's scheme: a party written as a CAIP-10 {@code eip155} account is a wallet and signs with
     * EIP-712; any other party signs with {@code hmacScheme} ({@code hmac} unless the request chose
     * {@code hmac-role}). A wallet mandate records the EIP-712 domain in force.
     */
    private void assignSchemes(Mandate m, SignatureScheme hmacScheme) {
        WalletParty proposer = wallet("proposer", m.proposerAgentId);
        WalletParty counterparty = wallet("counterparty", m.counterpartyAgentId);
        SignatureScheme other = hmacScheme == null ? SignatureScheme.HMAC : hmacScheme;
        m.proposerScheme = proposer != null ? SignatureScheme.EIP712 : other;
        m.counterpartyScheme = counterparty != null ? SignatureScheme.EIP712 : other;
        if (proposer != null && counterparty != null && proposer.address().equals(counterparty.address())) {
            throw ApiException.invalidField("counterparty", "must be another wallet than the proposer's");
        }
        if (m.hasWalletParty()) {
            String contract = config.eip712().verifyingContract().map(String::trim).filter(c -> !c.isEmpty())
                    .orElseThrow(() -> new ApiException(503, "wallet_signing_unavailable",
                            "this deployment has no anchor contract configured, so wallet (EIP-712) parties are unavailable"));
            m.eip712ChainId = config.eip712().chainId();
            m.eip712Contract = contract.toLowerCase(java.util.Locale.ROOT);
        }
    }

    private static WalletParty wallet(String field, String party) {
        try {
            return WalletParty.parse(party);
        } catch (IllegalArgumentException e) {
            throw ApiException.invalidField(field, e.getMessage());
        }
    }

    private static void verifyHmac(Mandate m, String role, SignatureScheme scheme, String secret, String signature) {
        if (secret == null || !CanonicalMandate.verify(hmacBytes(m, role, scheme), secret, signature)) {
            throw ApiException.forbidden("invalid_signature", scheme == SignatureScheme.HMAC_ROLE
                    ? "signature is not the HMAC-SHA256 of the role-bound canonical mandate bytes (signer_role \""
                            + role + "\") with your signing secret"
                    : "signature is not the HMAC-SHA256 of the canonical mandate bytes with your signing secret");
        }
    }

    private static void verifyWallet(Mandate m, boolean proposer, String signature) {
        WalletParty party = WalletParty.parse(proposer ? m.proposerAgentId : m.counterpartyAgentId);
        String recovered;
        try {
            recovered = Eip712Mandate.recover(Eip712Mandate.digest(domain(m), eip712Message(m)), signature);
        } catch (IllegalArgumentException e) {
            throw ApiException.forbidden("invalid_signature", e.getMessage());
        }
        if (!recovered.equals(party.address())) {
            throw ApiException.forbidden("invalid_signature", "signature recovers " + recovered + ", not the "
                    + (proposer ? "proposer" : "counterparty") + "'s address " + party.address()
                    + " (signed another mandate, domain or chain, or by another key)");
        }
    }

    static MandateView view(Mandate m, List<Transition> transitions) {
        return new MandateView(m.id, m.proposerAgentId, m.counterpartyAgentId, m.scope, m.terms, m.context,
                m.state.wire(), m.protoMandateHash, m.protoVersion, m.proposerSignature, m.counterpartySignature,
                ApiJson.time(m.signedByProposerAt), ApiJson.time(m.signedByCounterpartyAt), ApiJson.time(m.completedAt),
                CanonicalMandate.isoMillis(m.expiresAt), m.disputeReason, ApiJson.time(m.disputedAt), m.drsReceiptId,
                ApiJson.time(m.createdAt), ApiJson.time(m.updatedAt), m.proposerScheme.wire(), m.counterpartyScheme.wire(),
                transitions == null ? null : transitions.stream().map(t -> new MandateView.TransitionView(t.id().toString(),
                        t.fromState() == null ? null : t.fromState().wire(), t.toState().wire(), t.anchorStatus(),
                        t.anchorTxHash(),
                        t.anchorBlockNumber(), t.anchorChainId(), t.anchorLogIndex(), t.anchorContract(), t.metadata(),
                        ApiJson.time(t.createdAt()))).toList());
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
