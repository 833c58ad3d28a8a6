package dev.agentpay.mandate.oauth.domain;

import java.util.List;

/** The scopes a partner's API key may use; {@code allScopes} when it is not restricted. */
public record KeyScopes(String partnerId, List<String> scopes, boolean allScopes) {
}
