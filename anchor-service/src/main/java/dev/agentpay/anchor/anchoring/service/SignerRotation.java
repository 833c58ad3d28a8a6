package dev.agentpay.anchor.anchoring.service;

import dev.agentpay.anchor.anchoring.domain.OpenTx;
import dev.agentpay.anchor.anchoring.domain.Rotation;
import dev.agentpay.anchor.anchoring.domain.SignedTx;
import dev.agentpay.anchor.anchoring.repository.AnchorRepository.TxState;
import dev.agentpay.anchor.client.ChainRejectedException;
import dev.agentpay.anchor.client.ChainUnavailableException;
import dev.agentpay.commons.error.ApiException;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Signer rotation with an overlap (README, "Signer rotation"). A rotation, once requested
 * ({@link #request}), is driven by the signer's lease holder at the start of every batch round, under
 * the round's fencing token:
 * <ol>
 * <li>{@code AUTHORISING}: the outgoing signer (still signing batches) sends {@code addSigner(next)} at its
 * next nonce; from that transaction's confirmation on, both signers may anchor (the overlap).</li>
 * <li>{@code DRAINING}: the incoming signer signs every new batch (its own nonce sequence); the outgoing
 * signer's open transactions are confirmed (a failed one's transitions are re-queued and signed by the
 * incoming one), so nothing is anchored twice or skipped.</li>
 * <li>{@code RETIRING}: once the outgoing signer has nothing open, the incoming one sends
 * {@code removeSigner(old)}; its confirmation ends the overlap: {@code DONE}.</li>
 * </ol>
 * The contract's {@code SignerAdded}/{@code SignerRemoved} logs are the public record of which signer was
 * valid when; verifiers replay them up to an anchor's log (discovery {@code /disco/reference/anchor-signers.md}).
 */
@ApplicationScoped
public class SignerRotation extends AnchorStage {

    private static final Logger LOG = Logger.getLogger(SignerRotation.class);

    @Inject
    AnchorContract contract;
    @Inject
    FeePolicy fees;

    /** The signers' history as this service recorded it, with the rotation in progress (if any). */
    public record Signers(String active, String next, Rotation open, List<Rotation> rotations) {
    }

    /** Reads which signer is active from the database and makes it this instance's (every instance agrees). */
    public Uni<String> refresh(SqlClient c) {
        return repo.openRotation(c, false).flatMap(open -> open != null ? Uni.createFrom().item(open.activeSigner())
                : repo.lastDoneRotation(c).map(done -> done != null ? done.toSigner() : signer.configured()))
                .invoke(signer::activate);
    }

    /** {@link #refresh} on a connection of its own. */
    Uni<String> refreshNow() {
        return pool.withConnection(this::refresh);
    }

    /** The signers and rotations, for the admin API. */
    public Uni<Signers> signers() {
        return pool.withConnection(c -> refresh(c).chain(active -> repo.openRotation(c, false)
                .flatMap(open -> repo.rotations(c).map(all -> new Signers(active, nextCandidate(active), open, all)))));
    }

    private String nextCandidate(String active) {
        for (String a : signer.addresses()) {
            if (!a.equals(active)) {
                return a;
            }
        }
        return null;
    }

    /**
     * Requests a rotation from the active signer to the configured next one. 409 {@code rotation_in_progress}
     * (with what it waits for) while one is open, {@code no_next_signer} when no other key is configured, and
     * {@code signer_retired} when the next key was rotated out before (a retired key never signs again).
     */
    public Uni<Rotation> request() {
        return rotatable().chain(() -> pool.withTransaction(c -> refresh(c).chain(active -> repo.openRotation(c, true).flatMap(open -> {
            if (open != null) {
                return waitsFor(c, open).flatMap(w -> Uni.createFrom().<Rotation>failure(ApiException.conflict("rotation_in_progress",
                        "rotation " + open.id() + " from " + open.fromSigner() + " to " + open.toSigner() + " is "
                                + open.status().toLowerCase(Locale.ROOT) + ": it waits for " + w)));
            }
            String next = nextCandidate(active);
            if (next == null) {
                throw ApiException.conflict("no_next_signer", "no next signer key is configured (anchor.next-signer-key,"
                        + " env ANCHOR_NEXT_SIGNER_KEY); the active signer is " + active);
            }
            return repo.everRotatedOut(c, next).flatMap(retired -> {
                if (retired) {
                    throw ApiException.conflict("signer_retired", "the configured next signer " + next
                            + " was rotated out before; configure a new key");
                }
                return repo.insertRotation(c, active, next, config.chainId(), config.contractAddress().toLowerCase(Locale.ROOT));
            }).map(r -> {
                if (r == null) {
                    throw ApiException.conflict("rotation_in_progress", "another rotation was requested at the same time");
                }
                LOG.infof("signer rotation %d requested: %s -> %s", r.id(), r.fromSigner(), r.toSigner());
                return r;
            });
        }))));
    }

    /**
     * 409 {@code contract_cannot_rotate} for a contract of an earlier build (one immutable {@code signer()}, no
     * {@code isSigner}/{@code addSigner}): its {@code addSigner} would revert for ever. Deploy the current contract.
     */
    private Uni<Void> rotatable() {
        String probe = signer.configured();
        return chain.ethCall(probe, config.contractAddress(), contract.encodeIsSigner(probe))
                .onFailure(ChainRejectedException.class).recoverWithItem("0x")
                .onFailure(ChainUnavailableException.class).transform(e -> new ApiException(503, "anchor_chain_unavailable",
                        "the anchor network's RPC does not answer; nothing changed, try again"))
                .invoke(ret -> {
                    if (ret == null || ret.length() < 66) {
                        throw ApiException.conflict("contract_cannot_rotate", "the anchor contract " + config.contractAddress()
                                + " has no signer set (an earlier build with one immutable signer); deploy the current MandateAnchor"
                                + " to rotate (deploy/README.md)");
                    }
                }).replaceWithVoid();
    }

    /** What an open rotation waits for, in words. */
    Uni<String> waitsFor(SqlClient c, Rotation r) {
        return switch (r.status()) {
            case Rotation.AUTHORISING -> Uni.createFrom().item(r.authoriseNonce() == null
                    ? "the outgoing signer to send addSigner(" + r.toSigner() + ")"
                    : "addSigner(" + r.toSigner() + ") (nonce " + r.authoriseNonce() + " of " + r.fromSigner() + ") to be confirmed");
            case Rotation.DRAINING -> repo.openCount(c, r.fromSigner()).map(o -> o.count() == 0
                    ? "the incoming signer to send removeSigner(" + r.fromSigner() + ")"
                    : o.count() + " open transaction(s) of " + r.fromSigner() + " (nonces " + o.lowest() + ".." + o.highest()
                            + ") to be confirmed");
            case Rotation.RETIRING -> Uni.createFrom().item("removeSigner(" + r.fromSigner() + ") (nonce " + r.retireNonce() + " of "
                    + r.toSigner() + ") to be confirmed");
            default -> Uni.createFrom().item("nothing");
        };
    }

    /**
     * One step of the open rotation, if any, under the round's fencing token; first makes the active signer
     * this instance's. Runs in the batch loop, so it never interleaves with signing a batch.
     */
    Uni<Void> step(long token) {
        return pool.withConnection(c -> refresh(c).chain(() -> repo.openRotation(c, false))).flatMap(r -> r == null
                ? Uni.createFrom().voidItem()
                : advance(r, token).onFailure().recoverWithUni(e -> {
                    // a failed step (RPC away, lease lost) leaves the rotation where it was; batching goes on, the next round retries
                    LOG.warnf("signer rotation %d (%s): step failed, retrying next round: %s", r.id(), r.status(), e.getMessage());
                    return Uni.createFrom().voidItem();
                }));
    }

    private Uni<Void> advance(Rotation r, long token) {
        return switch (r.status()) {
            case Rotation.AUTHORISING -> authorising(r, token);
            case Rotation.DRAINING -> draining(r, token);
            case Rotation.RETIRING -> retiring(r, token);
            default -> Uni.createFrom().voidItem();
        };
    }

    private Uni<Void> authorising(Rotation r, long token) {
        BiFunction<SqlClient, Long, Uni<Void>> record = (c, nonce) -> repo.rotationAuthoriseSigned(c, r.id(), nonce);
        if (r.authoriseNonce() == null) {
            return send(r.fromSigner(), contract.encodeAddSigner(r.toSigner()), OpenTx.AUTHORISE, token, record)
                    .invoke(tx -> LOG.infof("signer rotation %d: %s sent addSigner(%s) (nonce %d, %s)", r.id(), r.fromSigner(),
                            r.toSigner(), tx.nonce(), tx.hash()))
                    .replaceWithVoid();
        }
        return whenConfirmed(r, r.fromSigner(), r.authoriseNonce(), "addSigner(" + r.toSigner() + ")", token, record,
                // the incoming signer's nonce sequence starts where the chain has it, then it signs every new batch
                s -> chain.transactionCount(r.toSigner(), true).flatMap(pending -> pool.withTransaction(c -> lease.fence(c, token)
                        .chain(() -> repo.reconcileNonce(c, r.toSigner(), pending))
                        .chain(() -> repo.rotationSwitched(c, r.id(), s.hash(), s.blockNumber()))))
                        .invoke(() -> {
                            signer.activate(r.toSigner());
                            LOG.infof("signer rotation %d: %s authorised in block %d; it signs from now on, %s drains", r.id(),
                                    r.toSigner(), s.blockNumber(), r.fromSigner());
                        }));
    }

    private Uni<Void> draining(Rotation r, long token) {
        return repo.openCount(pool, r.fromSigner()).flatMap(open -> {
            if (open.count() > 0) {
                return Uni.createFrom().voidItem();
            }
            return send(r.toSigner(), contract.encodeRemoveSigner(r.fromSigner()), OpenTx.RETIRE, token,
                    (c, nonce) -> repo.rotationRetireSigned(c, r.id(), nonce))
                    .invoke(tx -> LOG.infof("signer rotation %d: %s sent removeSigner(%s) (nonce %d, %s)", r.id(), r.toSigner(),
                            r.fromSigner(), tx.nonce(), tx.hash()))
                    .replaceWithVoid();
        });
    }

    private Uni<Void> retiring(Rotation r, long token) {
        return whenConfirmed(r, r.toSigner(), r.retireNonce(), "removeSigner(" + r.fromSigner() + ")", token,
                (c, nonce) -> repo.rotationRetireSigned(c, r.id(), nonce),
                s -> pool.withTransaction(c -> lease.fence(c, token).chain(() -> repo.rotationDone(c, r.id(), s.hash(), s.blockNumber())))
                        .invoke(() -> LOG.infof("signer rotation %d done: %s retired in block %d; %s is the only signer", r.id(),
                                r.fromSigner(), s.blockNumber(), r.toSigner())));
    }

    /**
     * Follows the rotation's transaction {@code call}, sent as {@code from} at {@code nonce}: a failed (or unknown) one
     * is forgotten ({@code record} with no nonce, fenced) so that the next round sends it again, a pending one is waited
     * for, and a confirmed one goes on with {@code confirmed}. The same for {@code addSigner} and {@code removeSigner}.
     */
    private Uni<Void> whenConfirmed(Rotation r, String from, long nonce, String call, long token,
            BiFunction<SqlClient, Long, Uni<Void>> record, Function<TxState, Uni<Void>> confirmed) {
        return repo.txState(pool, from, nonce).flatMap(s -> {
            if (s == null || "FAILED".equals(s.status())) {
                LOG.warnf("signer rotation %d: %s failed; sending it again", r.id(), call);
                return pool.withTransaction(c -> lease.fence(c, token).chain(() -> record.apply(c, null)));
            }
            if (!"CONFIRMED".equals(s.status())) {
                return Uni.createFrom().voidItem();
            }
            return confirmed.apply(s);
        });
    }

    /** Signs {@code data} as {@code from} at its next nonce, stores it with {@code record} in one fenced transaction, then broadcasts it. */
    private Uni<SignedTx> send(String from, String data, String kind, long token, BiFunction<SqlClient, Long, Uni<Void>> record) {
        return Uni.combine().all().unis(fees.current(), chain.estimateGas(from, config.contractAddress(), data)).asTuple()
                .flatMap(t -> {
                    FeePolicy.Fees f = t.getItem1();
                    if (!f.affordable()) {
                        return Uni.createFrom().<SignedTx>failure(new IllegalStateException("base fee " + f.baseFee()
                                + " wei is above the fee cap; waiting"));
                    }
                    return pool.withTransaction(c -> lease.fence(c, token).chain(() -> repo.lockNextNonce(c, from)).flatMap(nonce -> {
                        SignedTx tx = signer.signAs(from, nonce, fees.gasLimit(t.getItem2()), data, f.tip(), f.maxFee(), 0);
                        return repo.storeTx(c, from, tx, kind).chain(() -> record.apply(c, nonce)).replaceWith(tx);
                    }));
                })
                .call(tx -> broadcaster.broadcast(tx.nonce(), tx.hash(), tx.raw()));
    }
}
