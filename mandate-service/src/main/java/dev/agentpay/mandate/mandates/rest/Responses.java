package dev.agentpay.mandate.mandates.rest;

import dev.agentpay.mandate.config.ApiJson;
import dev.agentpay.mandate.idempotency.domain.ApiResult;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

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
}
