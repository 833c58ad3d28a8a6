package dev.agentpay.commons.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * A failed {@link JsonRpcHttp#call}: the endpoint could not be asked or gave no JSON (a transport failure,
 * its cause attached), or it answered a JSON-RPC {@code error} ({@link #error()}). The message is
 * {@code "<method>: <what failed>"}; clients wrap it in their own exception types.
 */
public class JsonRpcException extends RuntimeException {

    private final String method;
    private final transient JsonNode error;

    public JsonRpcException(String method, String detail, JsonNode error, Throwable cause) {
        super(method + ": " + detail, cause);
        this.method = method;
        this.error = error;
    }

    public String method() {
        return method;
    }

    /** The answer's JSON-RPC {@code error} object; empty for a transport failure. */
    public Optional<JsonNode> error() {
        return Optional.ofNullable(error);
    }
}
