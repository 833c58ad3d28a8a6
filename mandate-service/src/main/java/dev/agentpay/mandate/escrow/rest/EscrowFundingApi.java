package dev.agentpay.mandate.escrow.rest;

import dev.agentpay.mandate.escrow.domain.FundingRequest;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The typed body of {@code POST /v1/mandates/{id}/escrow} (mandate-service README, "Escrow funding instructions"). */
public final class EscrowFundingApi {

    static final String TIMESTAMP = "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]{1,9})?Z$";

    private EscrowFundingApi() {
    }

    @Schema(name = "FundEscrowRequest", additionalProperties = Schema.False.class)
    public record FundEscrowRequest(
            @NotNull @Size(min = 1, max = 16)
            @Schema(required = true, description = "an EVM chain with an escrow: base, polygon, arbitrum or skale", examples = "base")
            String chain,
            @NotNull @Pattern(regexp = "^0x[0-9a-fA-F]{40}$", message = "must be a 0x-prefixed 20-byte EVM address")
            @Schema(required = true, description = "the funder's wallet: it sends fund (approve) or signs the authorization "
                    + "(eip3009); the escrow is this wallet's for this mandate", examples = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
            String payer,
            @Valid @Schema(description = "stream the budget linearly to the counterparty between start and end (at most the "
                    + "mandate's expiry); absent: paid by releases only")
            Stream stream,
            @NotNull @Pattern(regexp = "^(approve|eip3009)$", message = "must be approve or eip3009")
            @Schema(required = true, enumeration = {"approve", "eip3009"}, description = "approve: two transactions "
                    + "(USDC approve, then fund) from the payer; eip3009: the payer signs USDC's ReceiveWithAuthorization "
                    + "(no gas, no approve) and anyone submits fundWithAuthorization")
            String method) {

        public FundingRequest toRequest() {
            return new FundingRequest(chain, payer, stream == null ? null : stream.start(), stream == null ? null : stream.end(),
                    method);
        }
    }

    @Schema(name = "EscrowStream", additionalProperties = Schema.False.class)
    public record Stream(
            @NotNull @Pattern(regexp = TIMESTAMP, message = "must be an ISO 8601 UTC timestamp such as 2026-12-01T00:00:00Z")
            @Schema(required = true, examples = "2026-12-01T00:00:00Z") String start,
            @NotNull @Pattern(regexp = TIMESTAMP, message = "must be an ISO 8601 UTC timestamp such as 2026-12-31T00:00:00Z")
            @Schema(required = true, examples = "2026-12-31T00:00:00Z") String end) {
    }
}
