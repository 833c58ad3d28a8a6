package dev.agentpay.mandate.mandates.domain;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonRawValue;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The Mandate object of {@code GET /v1/mandates/{id}} and of every {@code mandate.*} event. {@code terms}
 * is embedded as the stored canonical text, so what a client reads is byte for byte what was signed.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"id", "proposer_agent_id", "counterparty_agent_id", "scope", "terms", "context", "state",
        "proto_mandate_hash", "proto_version", "proposer_signature", "counterparty_signature", "signed_by_proposer_at",
        "signed_by_counterparty_at", "completed_at", "expires_at", "dispute_reason", "disputed_at", "drs_receipt_id",
        "created_at", "updated_at", "proposer_signature_scheme", "counterparty_signature_scheme", "parties", "budget",
        "budget_remaining", "escrow", "transitions"})
public record MandateView(
        String id,
        String proposerAgentId,
        String counterpartyAgentId,
        String scope,
        @Schema(type = SchemaType.OBJECT, description = "the signed terms, as stored (canonical JSON)") @JsonRawValue String terms,
        @Schema(type = SchemaType.OBJECT) @JsonRawValue String context,
        String state,
        String protoMandateHash,
        String protoVersion,
        String proposerSignature,
        String counterpartySignature,
        String signedByProposerAt,
        String signedByCounterpartyAt,
        String completedAt,
        String expiresAt,
        String disputeReason,
        String disputedAt,
        String drsReceiptId,
        String createdAt,
        String updatedAt,
        String proposerSignatureScheme,
        String counterpartySignatureScheme,
        @Schema(description = "every party in signing order (proposer and counterparty, or the parties form's parties), "
                + "each with its scheme and signature") List<PartyView> parties,
        @Schema(description = "the signed budget, or null (issue 28; `GET /v1/mandates/{id}/budget` shows its state)")
        dev.agentpay.mandate.budget.domain.BudgetViews.Terms budget,
        @Schema(description = "USDC remaining in the budget's current period (amount - spent - reserved), or null "
                + "without a budget", examples = "0.7") String budgetRemaining,
        @Schema(description = "the mandate's escrow on chain, or null (issue 30)") dev.agentpay.mandate.escrow.domain.EscrowView escrow,
        List<TransitionView> transitions) {

    /** One element of {@code transitions}. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"id", "from_state", "to_state", "anchor_status", "anchor_tx_hash", "anchor_block_number", "anchor_chain_id",
            "anchor_log_index", "anchor_contract", "anchors", "metadata", "created_at"})
    public record TransitionView(
            String id,
            String fromState,
            String toState,
            /**
             * {@code none} (the creation row, never anchored), {@code pending} (no chain's receipt recorded yet),
             * {@code partially_anchored} (some chains of {@code ANCHOR_CHAINS}, not all) or {@code anchored} (every chain).
             */
            @Schema(enumeration = {"none", "pending", "partially_anchored", "anchored"}) String anchorStatus,
            String anchorTxHash,
            Long anchorBlockNumber,
            Long anchorChainId,
            Integer anchorLogIndex,
            String anchorContract,
            @Schema(description = "every chain's anchor of this transition (several anchor chains, issue 31); the anchor_* "
                    + "fields above are the primary chain's") List<AnchorView> anchors,
            @Schema(type = SchemaType.OBJECT) @JsonRawValue String metadata,
            String createdAt) {
    }

    /** One chain's anchor of a transition: the MandateAnchored log there. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"chain_id", "contract", "tx_hash", "block_number", "log_index", "signer", "anchored_at"})
    public record AnchorView(long chainId, String contract, String txHash, long blockNumber, Integer logIndex, String signer,
            String anchoredAt) {
    }
}
