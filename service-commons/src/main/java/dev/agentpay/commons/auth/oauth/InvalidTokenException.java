package dev.agentpay.commons.auth.oauth;

/**
 * A bearer token that is refused (RFC 6750 {@code invalid_token}). The message says why in words that
 * never include the token or any of its parts.
 */
public class InvalidTokenException extends RuntimeException {

    public InvalidTokenException(String message) {
        super(message, null, false, false);
    }
}
