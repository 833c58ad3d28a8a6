package dev.agentpay.mandate.oauth.domain;

import java.time.Instant;
import java.util.List;

/**
 * A partner's OAuth client as the service layer hands it out (never its secret's hash); {@code secret} only in the
 * answer that created it, otherwise null.
 */
public record OAuthClient(String clientId, String partnerId, String name, List<String> scopes, String status,
        Instant createdAt, Instant revokedAt, String secret) {
}
