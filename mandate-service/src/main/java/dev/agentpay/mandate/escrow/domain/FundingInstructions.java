package dev.agentpay.mandate.escrow.domain;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * How to fund a mandate's escrow on a chain ({@code POST /v1/mandates/{id}/escrow}): nothing is stored; the escrow
 * exists once the chain has the funding transaction. Amounts: {@code amount} in USDC as decimal text,
 * {@code amount_atomic} in atomic units (6 decimals); times unix seconds (as the contract keeps them).
 */
@Schema(name = "EscrowFundingInstructions")
@JsonInclude(JsonInclude.Include.ALWAYS)
public record FundingInstructions(
        @JsonProperty("mandate_id") String mandateId,
        String chain,
        @JsonProperty("chain_id") long chainId,
        @Schema(description = "the chain's MandateEscrow contract") String contract,
        @Schema(description = "the chain's USDC") String token,
        @JsonProperty("mandate_hash") String mandateHash,
        @JsonProperty("escrow_id") @Schema(description = "keccak256(abi.encode(mandate_hash, payer)): the escrow this funds")
        String escrowId,
        String payer,
        @Schema(description = "where releases and withdrawals pay: the chain's payment address") String counterparty,
        @Schema(description = "the budget amount, USDC") String amount,
        @JsonProperty("amount_atomic") String amountAtomic,
        @JsonProperty("stream_start") long streamStart,
        @JsonProperty("stream_end") long streamEnd,
        @JsonProperty("expires_at") @Schema(description = "the mandate's expiry (unix seconds); the funder may refund what is "
                + "unspent after expires_at + the contract's grace") long expiresAt,
        String method,
        @Schema(description = "approve: the payer sends these in order (USDC approve, then fund); eip3009: the one call "
                + "to submit, its data ending with the signature (append v as a 32-byte word, then r and s) ")
        List<Call> transactions,
        @JsonProperty("typed_data") @Schema(description = "eip3009 only: EIP-712 typed data (eth_signTypedData_v4) of USDC's "
                + "ReceiveWithAuthorization that the payer signs; null for approve")
        Map<String, Object> typedData,
        @JsonProperty("valid_before") @Schema(description = "eip3009 only: the authorization's deadline (unix seconds)")
        Long validBefore) {

    /** One call: to, data (hex), what it does. {@code data_prefix}: eip3009's call before the signature words. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Call(String to, String data, @JsonProperty("data_prefix") String dataPrefix, String function, String description) {
    }
}
