package dev.agentpay.commons.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;

/**
 * The current state of one partner in the registry (compacted topic: the latest record per partner
 * wins). Carries only SHA-256 hashes of API keys; signing secrets never leave mandate-service.
 *
 * @param status        {@code active} or {@code revoked}
 * @param apiKeyHashes  lowercase hex SHA-256 of every API key currently valid for the partner
 * @param apiKeyScopes  the scopes the partner's API key is restricted to; absent: every scope (as before scopes)
 * @param oauthClients  the partner's active OAuth clients and the scopes each may be granted; absent: none
 */
public record PartnerEvent(
        @JsonUnwrapped EventHeader header,
        String name,
        String status,
        List<String> apiKeyHashes,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<String> apiKeyScopes,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<OAuthClient> oauthClients) implements DomainEvent {

    /** A partner record without scopes or OAuth clients (every scope for the key). */
    public PartnerEvent(EventHeader header, String name, String status, List<String> apiKeyHashes) {
        this(header, name, status, apiKeyHashes, null, null);
    }

    /** One OAuth client of the partner (its secret never leaves mandate-service). */
    public record OAuthClient(String clientId, List<String> scopes) {
    }

    public static final String TYPE = "partner.updated";
    public static final int SCHEMA_VERSION = 1;
    public static final String ACTIVE = "active";
    public static final String REVOKED = "revoked";

    @Override
    public String topic() {
        return Topics.PARTNERS;
    }
}
