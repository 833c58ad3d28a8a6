package dev.agentpay.commons.error;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The error envelope every service answers with: {@code {success:false, error:{code, message}}}. The one
 * error shape: resources throw {@link ApiException} (mapped by {@link ErrorMappers}), and the Vert.x
 * filters that answer before any resource runs (body limit, rate limit, NUL in the URL) write
 * {@link #json(String, String)}.
 */
public record ErrorBody(boolean success, Detail error) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public record Detail(String code, String message) {
    }

    public static ErrorBody of(String code, String message) {
        return new ErrorBody(false, new Detail(code, message));
    }

    /** The envelope as JSON text, for code that writes a response without JAX-RS. */
    public static String json(String code, String message) {
        try {
            return JSON.writeValueAsString(of(code, message));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("error body cannot be encoded", e);
        }
    }
}
