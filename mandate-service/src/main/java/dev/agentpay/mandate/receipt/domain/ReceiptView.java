package dev.agentpay.mandate.receipt.domain;

import dev.agentpay.mandate.mandates.domain.PartyView;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * A DRS receipt as {@code GET /v1/receipts/{id}} returns it. {@code anchor_tx_hash} is the anchor of the
 * {@code signed_by_both} transition, null until anchor-service reports it.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"id", "mandate_id", "mandate_hash", "proposer_signature", "counterparty_signature",
        "signed_by_proposer_at", "signed_by_counterparty_at", "issued_at", "anchor_tx_hash", "parties"})
public record ReceiptView(
        String id,
        String mandateId,
        String mandateHash,
        String proposerSignature,
        String counterpartySignature,
        String signedByProposerAt,
        String signedByCounterpartyAt,
        String issuedAt,
        String anchorTxHash,
        /** Every party's signature in signing order (two-party mandates: proposer then counterparty). */
        List<PartyView> parties) {
}
