package dev.agentpay.commons.auth.oauth;

import java.time.Instant;
import java.util.Set;

/**
 * A verified access token: its partner ({@code sub}), the OAuth client it was issued to ({@code client_id}),
 * its scopes, id and expiry. Never holds the token itself.
 */
public record AccessToken(String partnerId, String clientId, Set<String> scopes, String jti, Instant expiresAt) {
}
