package dev.agentpay.commons.auth.oauth;

/** The issuer's signing keys could not be read (and none were read before): the token cannot be judged yet. */
public class KeysUnavailableException extends RuntimeException {

    public KeysUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
