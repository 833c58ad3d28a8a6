package dev.agentpay.mandate.oauth.domain;

/** An access token just issued: the signed JWT, its type, its lifetime in seconds and its scope string. */
public record AccessToken(String token, String tokenType, long expiresIn, String scope) {
}
