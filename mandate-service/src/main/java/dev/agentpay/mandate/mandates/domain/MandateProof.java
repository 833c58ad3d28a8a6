package dev.agentpay.mandate.mandates.domain;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Map;

/**
 * The self-contained proof of a mandate ({@code GET /v1/public/mandates/{id}/proof}): what was signed, by
 * whom, and where each transition was anchored. Format and the verification steps:
 * discovery-service {@code /disco/reference/mandate-proof.md}.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"format", "mandate_id", "state", "proto_version", "hash_scheme", "mandate_hash", "typed_data",
        "canonical", "terms", "signatures", "anchors", "anchor_status", "pending_anchors"})
@JsonInclude(JsonInclude.Include.ALWAYS)
public record MandateProof(
        String format,
        String mandateId,
        String state,
        String protoVersion,
        /** {@code eip712} (the hash is the EIP-712 digest of {@code typed_data}) or {@code sha256-canonical}. */
        String hashScheme,
        String mandateHash,
        /** The EIP-712 typed data (domain, types, primaryType, message) when a party is a wallet, else null. */
        Map<String, Object> typedData,
        /** The canonical signing text (v0.1 bytes, UTF-8) of the mandate. */
        String canonical,
        /**
         * The canonical terms text as a JSON string (not an object, so no JSON reader can reformat its
         * numbers): its UTF-8 keccak-256 is the typed data's {@code termsHash}.
         */
        String terms,
        List<Signature> signatures,
        List<Anchor> anchors,
        /**
         * {@code pending} while a transition after creation has no receipt, {@code partially_anchored} while one lacks
         * a chain's of {@code ANCHOR_CHAINS}, else {@code anchored} ({@code none}: only created).
         */
        String anchorStatus,
        /** The transitions after creation without every chain's receipt yet (their recorded chains are in {@code anchors}). */
        List<PendingAnchor> pendingAnchors) {

    public static final String FORMAT = "agentpay-mandate-proof/1";

    /** One party's signature. {@code recovered_address} only for {@code eip712}. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"role", "party", "scheme", "signature", "recovered_address", "signed_at",
            "publicly_verifiable", "role_bound"})
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Signature(String role, String party, String scheme, String signature, String recoveredAddress,
            String signedAt, boolean publiclyVerifiable, boolean roleBound) {
    }

    /**
     * One chain's anchor of a transition (a transition anchored on several chains has one entry per chain): the
     * MandateAnchored log carrying {@code mandate_hash} and {@code to_state}, sent by
     * {@code signer} (the anchor signer; null for anchors recorded before signer rotation: the log's {@code sender}
     * is the signer then). A verifier checks the log's sender against the contract's signer history.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"to_state", "chain_id", "contract", "tx_hash", "block_number", "log_index", "signer"})
    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record Anchor(String toState, long chainId, String contract, String txHash, long blockNumber,
            Integer logIndex, String signer) {
    }

    /** A transition whose anchor receipt is still awaited; it moves to {@code anchors} when recorded. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"to_state", "transition_id", "anchor_status"})
    public record PendingAnchor(String toState, String transitionId, String anchorStatus) {
    }
}
