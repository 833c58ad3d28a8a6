package dev.agentpay.mandate.mandates.service;

import dev.agentpay.commons.error.ApiException;
import dev.agentpay.mandate.config.ApiJson;
import dev.agentpay.mandate.mandates.domain.Mandate;
import dev.agentpay.mandate.mandates.domain.MandatePage;
import dev.agentpay.mandate.mandates.domain.MandateProof;
import dev.agentpay.mandate.mandates.domain.MandateState;
import dev.agentpay.mandate.mandates.domain.MandateView;
import dev.agentpay.mandate.mandates.domain.Party;
import dev.agentpay.mandate.mandates.domain.PublicMandateView;
import dev.agentpay.mandate.mandates.domain.Transition;
import dev.agentpay.mandate.mandates.repository.MandateRepository;
import dev.agentpay.mandate.signing.Eip712Mandate;
import dev.agentpay.mandate.signing.SignatureScheme;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/** Reads of mandates: a partner's own view, the public view and the public proof. */
@ApplicationScoped
public class MandateQueries {

    @Inject
    MandateRepository mandates;

    @Inject
    Pool pool;

    public Uni<MandateView> get(String partnerId, String mandateId) {
        return withTransitions(conn -> mandates.find(conn, mandateId, partnerId), MandateViews::view);
    }

    /**
     * A page of the partner's mandates, newest first, optionally of one state ({@code GET /v1/mandates}); the cursor is
     * the keyset position of the last item (its creation time and id), opaque to clients.
     */
    public Uni<MandatePage> list(String partnerId, int limit, String cursor, MandateState state) {
        Instant beforeAt = null;
        String beforeId = null;
        if (cursor != null && !cursor.isBlank()) {
            try {
                String[] p = new String(Base64.getUrlDecoder().decode(cursor.trim()), StandardCharsets.UTF_8).split(" ", 2);
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
                next = Base64.getUrlEncoder().withoutPadding().encodeToString((last.createdAt + " " + last.id).getBytes(StandardCharsets.UTF_8));
            }
            return new MandatePage(page.stream().map(m -> MandateViews.view(m, null)).toList(), next);
        });
    }

    public Uni<PublicMandateView> publicView(String mandateId) {
        return withTransitions(conn -> mandates.findAny(conn, mandateId), (m, ts) -> {
            String anchor = null;
            for (Transition t : ts) {
                if (t.anchorTxHash() != null) {
                    anchor = t.anchorTxHash();
                }
            }
            String status = ts.isEmpty() ? Transition.ANCHOR_NONE : ts.get(ts.size() - 1).anchorStatus();
            return new PublicMandateView(m.id, m.state.wire(), m.protoMandateHash, anchor, status,
                    ApiJson.time(m.createdAt), m.budget != null,
                    m.signers().stream().map(p -> new PublicMandateView.Party(p.role, p.id, ApiJson.time(p.signedAt),
                            p.scheme.wire())).toList());
        });
    }

    /**
     * The proof anyone holding the id may read: the signed content, each signature with its scheme (and for
     * wallets the address it recovers), and every anchored transition. Transitions whose receipt has not
     * arrived yet are left out; {@code state} says how far the mandate went.
     */
    public Uni<MandateProof> proof(String mandateId) {
        return withTransitions(conn -> mandates.findAny(conn, mandateId), (m, ts) -> {
            List<MandateProof.Signature> sigs = m.signers().stream().map(p -> proofSignature(m, p)).toList();
            // one entry per transition and chain (several anchor chains: each chain's log is checked with its own RPC)
            List<MandateProof.Anchor> anchors = ts.stream().flatMap(t -> t.anchors().stream()
                    .map(a -> new MandateProof.Anchor(t.toState().wire(), a.chainId(), a.contract(), a.txHash(),
                            a.blockNumber(), a.logIndex(), a.signer())))
                    .toList();
            List<MandateProof.PendingAnchor> pending = ts.stream()
                    .filter(t -> Transition.ANCHOR_PENDING.equals(t.anchorStatus())
                            || Transition.ANCHOR_PARTIAL.equals(t.anchorStatus()))
                    .map(t -> new MandateProof.PendingAnchor(t.toState().wire(), t.id().toString(), t.anchorStatus()))
                    .toList();
            return new MandateProof(MandateProof.FORMAT, m.id, m.state.wire(), m.protoVersion,
                    m.hasWalletParty() ? "eip712" : "sha256-canonical", m.protoMandateHash,
                    m.hasWalletParty() ? MandateSignatures.typedData(m) : null,
                    new String(MandateSignatures.signingBytes(m), java.nio.charset.StandardCharsets.UTF_8), m.terms, sigs, anchors,
                    Transition.overallAnchorStatus(ts), pending);
        });
    }

    /**
     * The mandate {@code find} reads and its transitions, read on one connection and turned into a view by {@code view};
     * {@code 404 mandate_not_found} when there is no such mandate (or not the partner's).
     */
    private <T> Uni<T> withTransitions(Function<SqlConnection, Uni<Mandate>> find, BiFunction<Mandate, List<Transition>, T> view) {
        return pool.withConnection(conn -> find.apply(conn).flatMap(m -> {
            if (m == null) {
                throw notFound();
            }
            return mandates.transitions(conn, m.id).map(ts -> view.apply(m, ts));
        }));
    }

    private static MandateProof.Signature proofSignature(Mandate m, Party p) {
        SignatureScheme scheme = p.scheme;
        String recovered = null;
        if (scheme == SignatureScheme.EIP712 && p.signature != null) {
            recovered = Eip712Mandate.recover(MandateSignatures.walletDigest(m), p.signature);
        }
        return new MandateProof.Signature(p.role, p.id, scheme.wire(), p.signature, recovered, ApiJson.time(p.signedAt),
                scheme.publiclyVerifiable(), scheme.roleBound());
    }

    private static ApiException notFound() {
        return ApiException.notFound("mandate_not_found", "no such mandate");
    }
}
