package dev.agentpay.mandate.mandates.rest;

import dev.agentpay.mandate.config.ApiJson;
import dev.agentpay.mandate.idempotency.domain.ApiResult;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.Map;

/** Turns service answers into HTTP responses: status, JSON content type and, for a replayed answer, its header. */
public final class Responses {

    /** Response header marking an answer replayed for a repeated {@code Idempotency-Key}. */
    public static final String REPLAYED_HEADER = "Idempotent-Replayed";

    private Responses() {
    }

    public static Response of(ApiResult result) {
        Response.ResponseBuilder b = Response.status(result.status()).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(result.json());
        if (result.replayed()) {
            b.header(REPLAYED_HEADER, "true");
        }
        return b.build();
    }

    public static Response ok(Object data) {
        return Response.ok(ApiJson.envelope(data), MediaType.APPLICATION_JSON_TYPE).build();
    }

    /**
     * The error envelope with one field beside {@code code} and {@code message} in {@code error}, for a refusal the
     * client acts on with a number the service knows (a budget's {@code remaining}, what an escrow {@code held}).
     */
    public static Response error(int status, String code, String message, String field, Object value) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", code);
        error.put("message", message);
        error.put(field, value);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("success", false);
        body.put("error", error);
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(ApiJson.write(body)).build();
    }
}
