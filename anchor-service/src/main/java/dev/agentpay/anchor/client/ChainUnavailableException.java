package dev.agentpay.anchor.client;

/** The anchor network's RPC could not be reached or did not answer in time; worth retrying. */
public class ChainUnavailableException extends RuntimeException {

    public ChainUnavailableException(String method, Throwable cause) {
        super(method + ": anchor RPC unavailable (" + cause.getClass().getSimpleName() + ": " + cause.getMessage() + ")", cause);
    }
}
