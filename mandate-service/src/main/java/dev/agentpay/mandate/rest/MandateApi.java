package dev.agentpay.mandate.rest;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.agentpay.mandate.domain.MandateView;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The typed contract of the mandate API's bodies, as its OpenAPI document describes them. The resources
 * read these bodies with the platform's reader ({@code JsonRequest}) rather than binding them, because the
 * canonical signing needs {@code terms} exactly as sent; {@link MandateFields} applies the same rules
 * these schemas state, naming the field of any refusal.
 */
public final class MandateApi {

    private MandateApi() {
    }

    @Schema(name = "CreateMandateRequest", additionalProperties = Schema.False.class)
    public record CreateMandateRequest(
            @Schema(required = true, maxLength = 256, description = "party name (NFC, no control/bidi/zero-width "
                    + "characters) or a wallet eip155:<chain id>:<address>", examples = "agent:buyer-1") String proposer,
            @Schema(required = true, maxLength = 256, examples = "agent:seller-1") String counterparty,
            @Schema(required = true, maxLength = 10000, examples = "translate 10 documents") String scope,
            @Schema(required = true, type = SchemaType.OBJECT, description = "signed as sent; numbers must survive "
                    + "JavaScript's double encoding (send others as strings)") Map<String, Object> terms,
            @Schema(required = true, format = "date-time", examples = "2030-01-31T12:00:00.000Z") String expiry,
            @Schema(type = SchemaType.OBJECT, description = "unsigned context, at most 32 levels deep") Map<String, Object> context,
            @JsonProperty("signature_scheme") @Schema(enumeration = {"hmac", "hmac-role"}, defaultValue = "hmac")
            String signatureScheme) {
    }

    @Schema(name = "SignMandateRequest", additionalProperties = Schema.False.class)
    public record SignRequest(
            @Schema(required = true, enumeration = {"proposer", "counterparty"}) String signer,
            @Schema(required = true, maxLength = 132, description = "hex HMAC-SHA256 of the canonical mandate, or an "
                    + "EIP-712 signature") String signature,
            @Schema(enumeration = {"hmac", "hmac-role", "eip712"}) String scheme) {
    }

    @Schema(name = "MandateTransitionRequest", additionalProperties = Schema.False.class,
            description = "optional body of start and complete")
    public record TransitionRequest(@JsonProperty("triggered_by") @Schema(maxLength = 256) String triggeredBy) {
    }

    @Schema(name = "DisputeMandateRequest", additionalProperties = Schema.False.class)
    public record DisputeRequest(
            @Schema(required = true, maxLength = 4000) String reason,
            @JsonProperty("triggered_by") @Schema(maxLength = 256) String triggeredBy) {
    }

    @Schema(name = "MandateCreated")
    public record Created(
            @JsonProperty("mandate_id") @Schema(required = true) String mandateId,
            @Schema(required = true, examples = "proposed") String status,
            @JsonProperty("proposer_signature_required") @Schema(required = true) boolean proposerSignatureRequired) {
    }

    @Schema(name = "MandateSigned")
    public record Signed(
            @JsonProperty("mandate_id") @Schema(required = true) String mandateId,
            @Schema(required = true) String status,
            @JsonProperty("drs_receipt_id") @Schema(description = "set once both parties signed") String drsReceiptId) {
    }

    @Schema(name = "MandateStateChanged")
    public record StateChanged(
            @JsonProperty("mandate_id") @Schema(required = true) String mandateId,
            @Schema(required = true) String status,
            @Schema(required = true) MandateView mandate) {
    }

    @Schema(name = "CreatePartnerRequest", additionalProperties = Schema.False.class)
    public record CreatePartnerRequest(@Schema(required = true, maxLength = 200) String name) {
    }

    @Schema(name = "ImportPartnerRequest", additionalProperties = Schema.False.class)
    public record ImportPartnerRequest(
            @Schema(required = true, maxLength = 200) String name,
            @JsonProperty("api_key") @Schema(required = true, pattern = "^sk_[0-9a-f]{64}$") String apiKey,
            @JsonProperty("signing_secret") @Schema(required = true) String signingSecret,
            @Schema(enumeration = {"active", "revoked"}) String status) {
    }
}
