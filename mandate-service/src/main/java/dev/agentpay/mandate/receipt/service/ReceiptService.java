package dev.agentpay.mandate.receipt.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.commons.consumer.IdempotentConsumer;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.events.AnchorReceiptEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.commons.outbox.Outbox;
import dev.agentpay.commons.sql.Times;
import dev.agentpay.mandate.config.ApiJson;
import dev.agentpay.mandate.mandates.domain.Mandate;
import dev.agentpay.mandate.mandates.domain.MandateState;
import dev.agentpay.mandate.mandates.domain.PartyView;
import dev.agentpay.mandate.mandates.repository.PartiesColumn;
import dev.agentpay.mandate.mandates.domain.Transition;
import dev.agentpay.mandate.mandates.repository.MandateRepository;
import dev.agentpay.mandate.mandates.service.MandateViews;
import dev.agentpay.mandate.receipt.domain.ReceiptView;
import dev.agentpay.mandate.receipt.repository.ReceiptRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.UUID;

/** Receipts of mandates signed by both parties, and anchor-service's receipts of anchored transitions. */
@ApplicationScoped
public class ReceiptService {

    @Inject
    MandateRepository mandates;

    @Inject
    ReceiptRepository receipts;

    @Inject
    Outbox outbox;

    @Inject
    Pool pool;

    @Inject
    IdempotentConsumer idempotent;

    public Uni<ReceiptView> receipt(String partnerId, String receiptId) {
        return pool.withConnection(conn -> receipts.find(conn, receiptId, partnerId).flatMap(r -> {
            if (r == null) {
                throw ApiException.notFound("receipt_not_found", "no such receipt");
            }
            return mandates.transitions(conn, r.mandateId()).map(ts -> {
                String anchor = null;
                for (Transition t : ts) {
                    if (t.toState().fullySigned()) {
                        anchor = t.anchorTxHash();
                    }
                }
                return new ReceiptView(r.id(), r.mandateId(), r.mandateHash(), r.proposerSignature(),
                        r.counterpartySignature(), ApiJson.time(r.signedByProposerAt()),
                        ApiJson.time(r.signedByCounterpartyAt()), ApiJson.time(r.issuedAt()), anchor,
                        r.parties() == null ? null : PartyView.of(PartiesColumn.read(r.parties())));
            });
        }));
    }

    /**
     * Applies one anchor receipt once, in a transaction of its own: the event id (recorded for
     * {@code consumer}) and {@link #applyAnchor}'s update commit together. {@code unknown} runs inside that
     * transaction when the receipt names no transition of the mandate (nothing changes then).
     *
     * @return false when this event was applied before
     */
    public Uni<Boolean> applyAnchorReceiptOnce(AnchorReceiptEvent event, UUID transitionId, String consumer,
            Runnable unknown) {
        return pool.withTransaction(conn -> idempotent.once(conn, event.eventId(), consumer,
                tx -> applyAnchor(tx, transitionId, event.aggregateId(), event.txHash(), event.blockNumber(),
                        event.chainId(), event.logIndex(), event.contract(), event.signer(), Times.now()).invoke(n -> {
                            if (n == 0) {
                                unknown.run();
                            }
                        })));
    }

    /**
     * Records anchor-service's receipt (one chain's) on the transition it anchors and, when that added the chain's
     * anchor, writes {@code mandate.anchored} to the outbox in the same transaction: one event per transition and
     * chain. The event carries the full Mandate row as it now reads plus {@code anchor} (the chain, tx and log this
     * event announces, with {@code transition_id} and {@code to_state}), {@code transitionId} and {@code toState}
     * of the anchored transition, and no {@code fromState} (not a state change; anchor-service never anchors it).
     *
     * @return the rows changed: 0 for an unknown transition, another mandate's, or the creation row
     */
    public Uni<Integer> applyAnchor(SqlClient tx, UUID transitionId, String mandateId, String txHash, long blockNumber,
            long chainId, int logIndex, String contract, String signer, Instant now) {
        return mandates.anchor(tx, transitionId, mandateId, txHash, blockNumber, chainId, logIndex, contract, signer, now)
                .flatMap(n -> n == 0 ? Uni.createFrom().item(n)
                        : mandates.findAny(tx, mandateId).flatMap(m -> mandates.transitions(tx, mandateId).flatMap(ts -> {
                            Transition anchored = ts.stream().filter(t -> t.id().equals(transitionId)).findFirst()
                                    .orElseThrow();
                            com.fasterxml.jackson.databind.node.ObjectNode row = EventCodec.mapper().valueToTree(MandateViews.view(m, ts));
                            // which chain's anchor this event announces (one mandate.anchored per chain and transition)
                            anchored.anchors().stream().filter(a -> a.chainId() == chainId).findFirst().ifPresent(a -> {
                                com.fasterxml.jackson.databind.node.ObjectNode anchor = EventCodec.mapper().valueToTree(MandateViews.anchor(a));
                                anchor.put("transition_id", transitionId.toString());
                                anchor.put("to_state", anchored.toState().wire());
                                row.set("anchor", anchor);
                            });
                            MandateEvent event = new MandateEvent(EventHeader.of(MandateEvent.ANCHORED, m.id,
                                    m.partnerId, now, MandateEvent.SCHEMA_VERSION), transitionId.toString(), null,
                                    anchored.toState().wire(), m.protoMandateHash, row);
                            return outbox.append(tx, event).replaceWith(n);
                        })));
    }
}
