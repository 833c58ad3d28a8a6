package dev.agentpay.mandate.mandates.domain;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * The redacted view anyone may read: no terms, context, scope or signatures. {@code anchor_tx_hash} is
 * that of the latest anchored transition; {@code anchor_status} that of the latest transition ({@code none}
 * for a mandate only created, {@code pending} until the latest transition's receipt is recorded, then
 * {@code anchored}: only then does {@code anchor_tx_hash} belong to the current state).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"id", "state", "mandate_hash", "anchor_tx_hash", "anchor_status", "created_at", "has_budget", "parties"})
public record PublicMandateView(
        String id,
        String state,
        String mandateHash,
        String anchorTxHash,
        String anchorStatus,
        String createdAt,
        /** Whether the mandate carries a budget; its amounts are not public. */
        boolean hasBudget,
        List<Party> parties) {

    /**
     * One party: {@code proposer} or {@code counterparty}, its agent id, when it signed (or null), and the
     * scheme it signs with ({@code hmac}, {@code hmac-role} or {@code eip712}).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"role", "agent_id", "signed_at", "signature_scheme"})
    public record Party(String role, String agentId, String signedAt, String signatureScheme) {
    }
}
