package dev.agentpay.mandate.mandates.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.commons.auth.ApiKeys;
import dev.agentpay.mandate.mandates.domain.MandateView;
import dev.agentpay.mandate.partner.domain.PartnerRules;
import dev.agentpay.mandate.config.ApiJson;
import dev.agentpay.mandate.mandates.service.MandateService;
import dev.agentpay.mandate.signing.CanonicalJson;
import dev.agentpay.mandate.signing.SignatureScheme;
import dev.agentpay.mandate.signing.MandateParty;
import jakarta.validation.Valid;
import java.util.List;
import java.util.Map;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The typed contract of the mandate API's bodies: the request records are bound by the framework's JSON
 * reader (with this service's reading rules, {@code ApiJson}) and checked by Bean Validation before a
 * resource method runs; the same annotations give the OpenAPI document its required fields, lengths and
 * patterns. {@code terms} is kept as the JSON tree that was sent, numbers exact, for the canonical signing.
 */
public final class MandateApi {

    /** An EIP-712 signature: 0x + 130 hex digits. */
    static final int SIGNATURE_MAX = 132;
    static final int AGENT_ID_MAX = 256;
    static final int TRIGGERED_BY_MAX = 256;
    /** The party id rule, as the OpenAPI document states it ({@link PartyId}). */
    static final String PARTY_ID_RULE = "party name (NFC, no control/bidi/zero-width characters) or a wallet, a CAIP-10 "
            + "account written exactly eip155:<chain id>:0x<40 hex digits>; an id that reads as a wallet after NFKC "
            + "folding, trimming and lowercasing (\"EIP155:…\", \" eip155:…\", fullwidth letters or colon) but is not a "
            + "valid CAIP-10 account is 400 validation_error";
    /** {@code @NotBlank} for a field that may be absent (the form rule, {@link MandateForm}, says when it is required). */
    static final String NOT_BLANK = "[\\s\\S]*\\S[\\s\\S]*";

    private MandateApi() {
    }

    /** A party's role in the parties form, and a {@code signer}: a lowercase name. */
    public static final String ROLE_PATTERN = "^[a-z][a-z0-9_-]{0,31}$";
    static final String ROLE_RULE = "must be a lowercase name: a letter a-z, then up to 31 of a-z, 0-9, _ and -";
    /** At least, and at most, this many parties in the parties form. */
    public static final int PARTIES_MIN = 2;
    public static final int PARTIES_MAX = 16;

    @Schema(name = "CreateMandateRequest", additionalProperties = Schema.False.class,
            description = "two forms, exclusive: `proposer` and `counterparty` (v0.1, unchanged), or `parties` (2 to 16 "
                    + "parties with roles of their own, signing in the order given)")
    @MandateForm
    public record CreateMandateRequest(
            @Pattern(regexp = NOT_BLANK, message = "{jakarta.validation.constraints.NotBlank.message}")
            @Size(max = AGENT_ID_MAX) @PartyId
            @Schema(description = PARTY_ID_RULE + "; required unless `parties` is sent", examples = "agent:buyer-1") String proposer,
            @Pattern(regexp = NOT_BLANK, message = "{jakarta.validation.constraints.NotBlank.message}")
            @Size(max = AGENT_ID_MAX) @PartyId
            @Schema(description = PARTY_ID_RULE + "; required unless `parties` is sent", examples = "agent:seller-1") String counterparty,
            @NotNull @NotBlank @Size(max = 10_000) @Schema(examples = "translate 10 documents") String scope,
            @JsonObject(required = true, signed = true)
            @Schema(required = true, implementation = Map.class, description = "signed as sent; numbers must survive "
                    + "JavaScript's double encoding (send others as strings)") JsonNode terms,
            @NotNull @JsTimestamp @Schema(format = "date-time", examples = "2030-01-31T12:00:00.000Z") String expiry,
            @JsonObject(maxDepth = CanonicalJson.MAX_DEPTH)
            @Schema(implementation = Map.class, description = "unsigned context, at most 32 levels deep") JsonNode context,
            @JsonProperty("signature_scheme")
            @Pattern(regexp = "^(\\s*|hmac|hmac-role)$", message = "must be \"hmac\" or \"hmac-role\" (a wallet party, written "
                    + "eip155:<chain id>:<address>, always signs with eip712)")
            @Schema(enumeration = {"hmac", "hmac-role"}, defaultValue = "hmac") String signatureScheme,
            // absent from the idempotency fingerprint when not sent: a two-party request keeps the fingerprint it had
            @JsonInclude(JsonInclude.Include.NON_NULL)
            @Size(min = PARTIES_MIN, max = PARTIES_MAX, message = "must list 2 to 16 parties")
            @Schema(description = "the parties form, instead of `proposer` and `counterparty`: every party with its role, "
                    + "in signing order (the first signs first); roles and ids unique; each party signs with its own scheme "
                    + "(a wallet eip155:<chain id>:<address> with eip712, any other id with `signature_scheme`)")
            List<@NotNull @Valid PartyRequest> parties,
            // absent from the idempotency fingerprint when not sent, likewise
            @JsonInclude(JsonInclude.Include.NON_NULL)
            @Valid @Schema(description = "optional budget the parties sign (issue 28); absent: the mandate signs exactly "
                    + "the bytes it signed before") dev.agentpay.mandate.budget.rest.BudgetApi.BudgetRequest budget) {

        /** Either form without a budget. */
        public CreateMandateRequest(String proposer, String counterparty, String scope, JsonNode terms, String expiry,
                JsonNode context, String signatureScheme, List<PartyRequest> parties) {
            this(proposer, counterparty, scope, terms, expiry, context, signatureScheme, parties, null);
        }

        /** The two-party form, as every v0.1 client sends it. */
        public CreateMandateRequest(String proposer, String counterparty, String scope, JsonNode terms, String expiry,
                JsonNode context, String signatureScheme) {
            this(proposer, counterparty, scope, terms, expiry, context, signatureScheme, null, null);
        }

        /** The parties form's id/role pairs in signing order, or {@code null} for the two-party form. */
        List<MandateParty> signedParties() {
            return parties == null ? null : parties.stream().map(p -> new MandateParty(p.id(), p.role())).toList();
        }

        /** The unsigned context as compact JSON, or {@code null}. */
        String contextJson() {
            return context == null || context.isNull() ? null : ApiJson.write(context);
        }

        /** The scheme of non-wallet parties: {@code hmac} (v0.1, the default) or {@code hmac-role}. */
        SignatureScheme hmacScheme() {
            SignatureScheme s = SignatureScheme.fromWire(signatureScheme);
            return s == null ? SignatureScheme.HMAC : s;
        }
    }

    /** One party of the parties form. */
    @Schema(name = "MandatePartyRequest", additionalProperties = Schema.False.class)
    public record PartyRequest(
            @NotNull @NotBlank @Size(max = AGENT_ID_MAX) @PartyId
            @Schema(description = PARTY_ID_RULE + " (a wallet signs with eip712)", examples = "agent:buyer-1") String id,
            @NotNull @Pattern(regexp = ROLE_PATTERN, message = ROLE_RULE)
            @Schema(description = "what the party signs as (`signer` of POST /v1/mandates/{id}/sign)", examples = "buyer") String role) {
    }

    @Schema(name = "SignMandateRequest", additionalProperties = Schema.False.class)
    public record SignRequest(
            @Schema(required = true, implementation = String.class, examples = "proposer",
                    description = "`proposer` or `counterparty`, or for a mandate created with `parties` one of its roles; "
                            + "anything else is 400 `invalid_signer`") JsonNode signer,
            @Size(max = SIGNATURE_MAX) @Schema(required = true, description = "hex HMAC-SHA256 of the canonical mandate, or "
                    + "an EIP-712 signature; absent or empty is 400 `missing_signature`") String signature,
            @Pattern(regexp = "^(\\s*|hmac|hmac-role|eip712)$", message = "must be \"hmac\", \"hmac-role\" or \"eip712\"")
            @Schema(enumeration = {"hmac", "hmac-role", "eip712"}) String scheme) {

        /**
         * The signer's role as sent, or {@code null} when it cannot be a role (not a string, or not a lowercase name:
         * spec {@code invalid_signer}); whether the mandate has that role is the service's check.
         */
        String role() {
            String s = signer != null && signer.isTextual() ? signer.textValue() : null;
            return s != null && s.matches(ROLE_PATTERN) ? s : null;
        }
    }

    @Schema(name = "MandateTransitionRequest", additionalProperties = Schema.False.class,
            description = "optional body of start and complete")
    public record TransitionRequest(
            @JsonProperty("triggered_by") @Size(max = TRIGGERED_BY_MAX) @Schema(description = "who acted; blank or "
                    + "absent: system") String triggeredBy) {

        static final TransitionRequest EMPTY = new TransitionRequest(null);
    }

    @Schema(name = "DisputeMandateRequest", additionalProperties = Schema.False.class)
    public record DisputeRequest(
            @NotNull @NotBlank @Size(max = 4_000) String reason,
            @JsonProperty("triggered_by") @Size(max = TRIGGERED_BY_MAX) @Schema(description = "who acted; blank or "
                    + "absent: system") String triggeredBy) {
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

    /** The answer to {@code complete}: the state change plus when it completed. */
    @Schema(name = "MandateCompleted")
    public record Completed(
            @JsonProperty("mandate_id") @Schema(required = true) String mandateId,
            @Schema(required = true, examples = "completed") String status,
            @Schema(required = true) MandateView mandate,
            @JsonProperty("completed_at") @Schema(required = true, description = "when it completed (ISO 8601)") String completedAt) {
    }

    /** The answer to {@code dispute}: the state change plus the dispute's reason and time. */
    @Schema(name = "MandateDisputed")
    public record Disputed(
            @JsonProperty("mandate_id") @Schema(required = true) String mandateId,
            @Schema(required = true, examples = "disputed") String status,
            @Schema(required = true) MandateView mandate,
            @JsonProperty("dispute_reason") @Schema(required = true, description = "the reason the request gave") String disputeReason,
            @JsonProperty("disputed_at") @Schema(required = true, description = "when it was disputed (ISO 8601)") String disputedAt) {
    }

    @Schema(name = "CreatePartnerRequest", additionalProperties = Schema.False.class)
    public record CreatePartnerRequest(@NotNull @NotBlank @Size(max = PartnerRules.NAME_MAX) String name) {
    }

    @Schema(name = "ImportPartnerRequest", additionalProperties = Schema.False.class)
    public record ImportPartnerRequest(
            @NotNull @NotBlank @Size(max = PartnerRules.NAME_MAX) String name,
            @JsonProperty("api_key") @NotNull @Pattern(regexp = ApiKeys.PATTERN, message = "must be sk_ followed by 64 "
                    + "lowercase hex characters") String apiKey,
            @JsonProperty("signing_secret") @NotNull @Pattern(regexp = PartnerRules.SECRET_PATTERN,
                    message = PartnerRules.SECRET_RULE) String signingSecret,
            @Pattern(regexp = "^(\\s*|active|revoked)$", message = "must be \"active\" or \"revoked\"")
            @Schema(enumeration = {"active", "revoked"}, defaultValue = "active") String status) {
    }
}
