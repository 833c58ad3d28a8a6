package dev.agentpay.mandate.escrow.domain;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.agentpay.mandate.budget.domain.Usdc;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The {@code escrow} member of the Mandate object, the budget and the dispute case (USDC decimal strings). */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.ALWAYS)
@JsonPropertyOrder({"chain", "contract", "escrow_id", "funder", "funded", "released", "withdrawn", "refunded", "held", "state",
        "stream_start", "stream_end", "expires_at"})
@Schema(name = "MandateEscrow", description = "the mandate's escrow on chain (issue 30), as settlement-watcher reported it at "
        + "the chain's confirmation depth; held = funded - released - withdrawn - refunded")
public record EscrowView(
        @Schema(required = true, examples = "base") String chain,
        @Schema(required = true, description = "the MandateEscrow contract") String contract,
        @Schema(required = true, description = "keccak256(abi.encode(mandateHash, funder))") String escrowId,
        String funder,
        @Schema(required = true, examples = "10") String funded,
        @Schema(required = true, examples = "2.5") String released,
        @Schema(required = true, description = "withdrawn by the counterparty from a stream", examples = "0") String withdrawn,
        @Schema(required = true, examples = "0") String refunded,
        @Schema(required = true, examples = "7.5") String held,
        @Schema(required = true, description = "the contract's state: active, frozen, resolved, refunded", examples = "active") String state,
        @Schema(description = "unix seconds, or null without a stream") Long streamStart,
        Long streamEnd,
        @Schema(description = "unix seconds after which (plus the contract's grace) the funder may refund") Long expiresAt) {

    public static EscrowView of(EscrowState e) {
        if (e == null) {
            return null;
        }
        return new EscrowView(e.chain(), e.contract(), e.escrowId(), e.funder(), Usdc.text(e.funded()), Usdc.text(e.released()),
                Usdc.text(e.withdrawn()), Usdc.text(e.refunded()), Usdc.text(e.held()), e.state(), e.streamStart(), e.streamEnd(),
                e.expiresAt());
    }
}
