package dev.agentpay.mandate.rest;

import dev.agentpay.mandate.service.ApiJson;
import dev.agentpay.mandate.service.ApiResult;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** Turns service answers into HTTP responses. */
final class Responses {

    private Responses() {
    }

    static Response of(ApiResult result) {
        Response.ResponseBuilder b = Response.status(result.status()).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(result.json());
        result.headers().forEach(b::header);
        return b.build();
    }

    static Response ok(Object data) {
        return Response.ok(ApiJson.envelope(data), MediaType.APPLICATION_JSON_TYPE).build();
    }
}
