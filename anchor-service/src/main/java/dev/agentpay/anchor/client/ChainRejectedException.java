package dev.agentpay.anchor.client;

/** The anchor network answered a JSON-RPC error; retrying the same request will not help. */
public class ChainRejectedException extends RuntimeException {

    private final int code;

    public ChainRejectedException(String method, int code, String message) {
        super(method + " rejected (" + code + "): " + message);
        this.code = code;
    }

    public int code() {
        return code;
    }

    /** Whether the node says it already has (or already mined) a transaction with this nonce or hash. */
    public boolean alreadyKnownOrNonceUsed() {
        String m = getMessage().toLowerCase();
        return m.contains("already known") || m.contains("known transaction") || m.contains("nonce too low")
                || m.contains("already imported") || m.contains("already exists");
    }
}
