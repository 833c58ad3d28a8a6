package dev.agentpay.commons.error;

/**
 * A refusal the caller can act on: an HTTP status, a stable machine-readable code and a message.
 * Thrown anywhere in request handling and turned into the error envelope by {@link ErrorMappers}.
 */
public class ApiException extends RuntimeException {

    private final int status;
    private final String code;

    public ApiException(int status, String code, String message) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    public static ApiException badRequest(String code, String message) {
        return new ApiException(400, code, message);
    }

    /** 400 {@code validation_error} naming the offending field. */
    public static ApiException invalidField(String field, String problem) {
        return new ApiException(400, "validation_error", field + ": " + problem);
    }

    public static ApiException unauthorized(String message) {
        return new ApiException(401, "unauthorized", message);
    }

    public static ApiException forbidden(String code, String message) {
        return new ApiException(403, code, message);
    }

    public static ApiException notFound(String code, String message) {
        return new ApiException(404, code, message);
    }

    public static ApiException conflict(String code, String message) {
        return new ApiException(409, code, message);
    }
}
