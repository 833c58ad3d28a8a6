package dev.agentpay.mandate.oauth.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.agentpay.mandate.config.ApiJson;
import dev.agentpay.mandate.oauth.domain.AccessToken;
import dev.agentpay.mandate.oauth.domain.KeyScopes;
import dev.agentpay.mandate.oauth.domain.OAuthClient;
import dev.agentpay.mandate.partner.domain.PartnerRules;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Bodies of the OAuth 2.0 endpoints: client administration, the token endpoint and the metadata documents. */
public final class OAuthApi {

    private OAuthApi() {
    }

    static final String SCOPE_LIST = "mandates:read, mandates:write, mandates:sign, disputes:write, invoices:read, "
            + "invoices:write, webhooks:manage";

    /** The 404 of the partner admin endpoints (OpenAPI description). */
    static final String PARTNER_NOT_FOUND = "no such partner (`partner_not_found`)";

    /** The 400 of the endpoints that take scopes (OpenAPI description). */
    static final String INVALID_SCOPE = "`invalid_scope`: a scope this API does not define; `validation_error` naming the field";

    @Schema(name = "CreateOAuthClientRequest", additionalProperties = Schema.False.class)
    public record CreateClientRequest(
            @NotNull @NotBlank @Size(max = PartnerRules.NAME_MAX) @Schema(description = "a label for the client") String name,
            @NotNull @Size(min = 1, max = 16) @Schema(description = "the scopes tokens of this client may carry: " + SCOPE_LIST)
            List<@NotNull @NotBlank String> scopes) {
    }

    @Schema(name = "ApiKeyScopesRequest", additionalProperties = Schema.False.class)
    public record ApiKeyScopesRequest(
            @Size(min = 1, max = 16) @Schema(description = "the scopes the API key may use (" + SCOPE_LIST
                    + "); null: every scope", nullable = true) List<@NotNull @NotBlank String> scopes) {
    }

    /** An OAuth client; {@code client_secret} only in the answer that created it. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"client_id", "partner_id", "name", "scopes", "status", "created_at", "revoked_at", "client_secret"})
    @Schema(name = "OAuthClient")
    public record ClientView(
            String clientId,
            String partnerId,
            String name,
            List<String> scopes,
            @Schema(enumeration = {"active", "revoked"}) String status,
            String createdAt,
            String revokedAt,
            @JsonInclude(JsonInclude.Include.NON_NULL) @Schema(description = "shown once, when the client is created")
            String clientSecret) {

        static ClientView of(OAuthClient c) {
            return new ClientView(c.clientId(), c.partnerId(), c.name(), c.scopes(), c.status(), ApiJson.time(c.createdAt()),
                    c.revokedAt() == null ? null : ApiJson.time(c.revokedAt()), c.secret());
        }
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @Schema(name = "ApiKeyScopes")
    public record ApiKeyScopesView(String partnerId, List<String> scopes,
            @Schema(description = "true: the key is not restricted (every scope)") boolean allScopes) {

        static ApiKeyScopesView of(KeyScopes s) {
            return new ApiKeyScopesView(s.partnerId(), s.scopes(), s.allScopes());
        }
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @Schema(name = "SigningKeyRotation")
    public record RotationView(String kid, String previousKid,
            @Schema(description = "until when the previous key stays in the JWK set") String previousPublishedUntil) {
    }

    /** The form of {@code POST /oauth/token} (application/x-www-form-urlencoded), for the document. */
    @Schema(name = "TokenRequest")
    public record TokenForm(
            @JsonProperty("grant_type") @Schema(required = true, enumeration = "client_credentials") String grantType,
            @Schema(description = "space-separated subset of the client's scopes; absent: all of them") String scope,
            @JsonProperty("client_id") @Schema(description = "client_secret_post (or use HTTP Basic: client_secret_basic)") String clientId,
            @JsonProperty("client_secret") @Schema(description = "client_secret_post") String clientSecret,
            @Schema(description = "RFC 8707: the API's base URL (or a URL under it, e.g. the MCP endpoint); the token's audience stays the API") String resource) {
    }

    /** RFC 6749 §5.1. */
    @Schema(name = "TokenResponse")
    public record TokenResponse(
            @JsonProperty("access_token") @Schema(required = true) String accessToken,
            @JsonProperty("token_type") @Schema(required = true, enumeration = "Bearer") String tokenType,
            @JsonProperty("expires_in") @Schema(required = true, description = "seconds") long expiresIn,
            @Schema(required = true) String scope) {

        static TokenResponse of(AccessToken t) {
            return new TokenResponse(t.token(), t.tokenType(), t.expiresIn(), t.scope());
        }
    }

    /** RFC 6749 §5.2 (with {@code success: false}, as every error of the platform). */
    @Schema(name = "OAuthError")
    @JsonPropertyOrder({"success", "error", "error_description"})
    public record TokenError(
            @Schema(required = true) boolean success,
            @Schema(required = true, enumeration = {"invalid_request", "invalid_client", "invalid_grant", "unauthorized_client",
                    "unsupported_grant_type", "invalid_scope", "invalid_target"}) String error,
            @JsonProperty("error_description") @Schema(required = true) String errorDescription) {
    }

    /** A JWK set (RFC 7517 §5): public keys only. */
    @Schema(name = "JwkSet")
    public record JwkSet(@Schema(required = true) List<Map<String, Object>> keys) {
    }
}
