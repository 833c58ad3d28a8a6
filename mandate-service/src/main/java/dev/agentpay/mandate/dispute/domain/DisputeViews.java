package dev.agentpay.mandate.dispute.domain;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.agentpay.mandate.budget.domain.Usdc;
import dev.agentpay.mandate.config.ApiJson;
import dev.agentpay.mandate.mandates.domain.MandateView;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** How disputes read on the API ({@code GET /v1/mandates/{id}/dispute}, the evidence and resolve answers). */
public final class DisputeViews {

    private DisputeViews() {
    }

    /** One piece of evidence. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"evidence_id", "mandate_id", "party", "text", "links", "sha256", "transition_id", "anchor_status",
            "anchor_tx_hash", "anchor_chain_id", "anchor_block_number", "anchor_log_index", "submitted_by", "submitted_at"})
    @Schema(name = "DisputeEvidence")
    public record EvidenceView(
            @Schema(required = true, examples = "evd_0b6c2f1e-0d7e-4a8e-9b7a-2f4f0c1d2e3f") String evidenceId,
            @Schema(required = true) String mandateId,
            @Schema(required = true, description = "the side it was submitted for: proposer, counterparty, or a role of a "
                    + "parties-form mandate", examples = "counterparty") String party,
            @Schema(required = true, maxLength = 10_000) String text,
            @Schema(required = true, description = "as sent (never fetched by the service), at most 5") List<String> links,
            @Schema(required = true, description = "0x + SHA-256 hex of the UTF-8 bytes of JSON.stringify({links, mandate_id, "
                    + "party, text})", pattern = "^0x[0-9a-f]{64}$") String sha256,
            @Schema(required = true, description = "the transition row (disputed -> disputed) anchoring it") String transitionId,
            @Schema(required = true, enumeration = {"pending", "anchored"}) String anchorStatus,
            String anchorTxHash,
            Long anchorChainId,
            Long anchorBlockNumber,
            Integer anchorLogIndex,
            @Schema(required = true, description = "triggered_by of the request (an audit label)") String submittedBy,
            @Schema(required = true, format = "date-time") String submittedAt) {

        public static EvidenceView of(Evidence e) {
            return new EvidenceView(e.id(), e.mandateId(), e.party(), e.text(), e.links(), e.sha256(),
                    e.transitionId().toString(), e.anchorTxHash() == null ? "pending" : "anchored", e.anchorTxHash(),
                    e.anchorChainId(), e.anchorBlockNumber(), e.anchorLogIndex(), e.submittedBy(), ApiJson.time(e.createdAt()));
        }
    }

    /** One party of the mandate and its evidence, oldest first. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"party", "agent_id", "evidence"})
    @Schema(name = "DisputeSide")
    public record SideView(
            @Schema(required = true, examples = "proposer") String party,
            @Schema(required = true) String agentId,
            @Schema(required = true) List<EvidenceView> evidence) {
    }

    /** The decision. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"outcome", "to_counterparty", "to_proposer", "note", "resolved_at", "transition_id"})
    @Schema(name = "DisputeResolution")
    public record ResolutionView(
            @Schema(required = true, enumeration = {"arbiter", "deadline_refund"}) String outcome,
            @Schema(required = true, description = "USDC to the counterparty", examples = "1.5") String toCounterparty,
            @Schema(required = true, description = "USDC back to the proposer (the funder)", examples = "0.5") String toProposer,
            String note,
            @Schema(required = true, format = "date-time") String resolvedAt,
            @Schema(required = true, description = "the disputed -> resolved transition") String transitionId) {

        public static ResolutionView of(DisputeCase c) {
            if (c.open()) {
                return null;
            }
            return new ResolutionView(c.outcome(), Usdc.text(c.toCounterpartyAtomic()), Usdc.text(c.toProposerAtomic()), c.note(),
                    ApiJson.time(c.resolvedAt()), c.resolutionTransition() == null ? null : c.resolutionTransition().toString());
        }
    }

    /** The case: {@code GET /v1/mandates/{id}/dispute}. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.ALWAYS)
    @JsonPropertyOrder({"mandate_id", "state", "status", "reason", "opened_by", "opened_at", "deadline_at", "deadline_outcome",
            "held", "escrow", "sides", "resolution"})
    @Schema(name = "DisputeCase")
    public record CaseView(
            @Schema(required = true) String mandateId,
            @Schema(required = true, description = "the mandate's state", enumeration = {"disputed", "resolved"}) String state,
            @Schema(required = true, enumeration = {"open", "resolved"}) String status,
            @Schema(required = true) String reason,
            @Schema(required = true, description = "triggered_by of the dispute request") String openedBy,
            @Schema(required = true, format = "date-time") String openedAt,
            @Schema(required = true, format = "date-time", description = "after it, an open dispute is resolved by refunding "
                    + "the funder") String deadlineAt,
            @Schema(required = true, enumeration = "refund_funder") String deadlineOutcome,
            @Schema(required = true, description = "USDC the resolution splits: the escrow's held amount when the mandate is "
                    + "funded in escrow, else 0 (without escrow the platform holds nothing)", examples = "0") String held,
            @Schema(type = SchemaType.OBJECT, description = "the mandate's escrow, or null") Object escrow,
            @Schema(required = true, description = "every party in signing order with its evidence, oldest first") List<SideView> sides,
            @Schema(description = "null while open") ResolutionView resolution) {
    }

    /** The answer of {@code POST /admin/v1/disputes/{id}/resolve}. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"mandate_id", "status", "resolution", "mandate"})
    @Schema(name = "DisputeResolved")
    public record Resolved(
            @Schema(required = true) String mandateId,
            @Schema(required = true, enumeration = "resolved") String status,
            @Schema(required = true) ResolutionView resolution,
            @Schema(required = true) MandateView mandate) {
    }
}
