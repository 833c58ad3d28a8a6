package dev.agentpay.mandate.mandates.service;

import dev.agentpay.mandate.config.ApiJson;
import dev.agentpay.mandate.mandates.domain.Mandate;
import dev.agentpay.mandate.mandates.domain.MandateView;
import dev.agentpay.mandate.mandates.domain.PartyView;
import dev.agentpay.mandate.mandates.domain.Transition;
import dev.agentpay.mandate.signing.CanonicalMandate;
import java.util.List;

/** A mandate row and its transitions as the API (and the {@code mandate.*} events) show them. */
public final class MandateViews {

    private MandateViews() {
    }

    public static MandateView view(Mandate m, List<Transition> transitions) {
        return new MandateView(m.id, m.proposerAgentId, m.counterpartyAgentId, m.scope, m.terms, m.context,
                m.state.wire(), m.protoMandateHash, m.protoVersion, m.proposerSignature, m.counterpartySignature,
                ApiJson.time(m.signedByProposerAt), ApiJson.time(m.signedByCounterpartyAt), ApiJson.time(m.completedAt),
                CanonicalMandate.isoMillis(m.expiresAt), m.disputeReason, ApiJson.time(m.disputedAt), m.drsReceiptId,
                ApiJson.time(m.createdAt), ApiJson.time(m.updatedAt), m.proposerScheme.wire(),
                m.counterpartyScheme == null ? null : m.counterpartyScheme.wire(), PartyView.of(m.signers()),
                dev.agentpay.mandate.budget.domain.BudgetViews.Terms.of(m.budget),
                m.budgetLedger == null ? null : dev.agentpay.mandate.budget.domain.Usdc.text(
                        m.budgetLedger.remainingAt(dev.agentpay.commons.sql.Times.now())),
                dev.agentpay.mandate.escrow.domain.EscrowView.of(m.escrow),
                transitions == null ? null : transitions.stream().map(t -> new MandateView.TransitionView(t.id().toString(),
                        t.fromState() == null ? null : t.fromState().wire(), t.toState().wire(), t.anchorStatus(),
                        t.anchorTxHash(),
                        t.anchorBlockNumber(), t.anchorChainId(), t.anchorLogIndex(), t.anchorContract(),
                        t.anchors().stream().map(MandateViews::anchor).toList(), t.metadata(),
                        ApiJson.time(t.createdAt()))).toList());
    }

    public static MandateView.AnchorView anchor(Transition.ChainAnchor a) {
        return new MandateView.AnchorView(a.chainId(), a.contract(), a.txHash(), a.blockNumber(), a.logIndex(), a.signer(),
                ApiJson.time(a.anchoredAt()));
    }
}
