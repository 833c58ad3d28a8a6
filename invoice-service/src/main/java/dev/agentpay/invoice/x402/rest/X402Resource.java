package dev.agentpay.invoice.x402.rest;

import dev.agentpay.invoice.x402.domain.X402Result;
import dev.agentpay.invoice.x402.service.X402Service;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.OPTIONS;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

/**
 * The x402 pay-per-call endpoints. No API key: the payment in {@code X-PAYMENT} (x402 v1) or
 * {@code PAYMENT-SIGNATURE} (v2) is the credential. Bodies are read as text so that any content type
 * an x402 client sends is accepted and validated the same way.
 */
@Path("/api/x402")
@Produces(MediaType.APPLICATION_JSON)
public class X402Resource {

    @Inject
    X402Service service;

    @Inject
    ResourceUrls urls;

    @POST
    @Path("/invoice")
    public Uni<Response> invoice(String body, @HeaderParam("X-PAYMENT") String payment,
            @HeaderParam("PAYMENT-SIGNATURE") String signature, @Context UriInfo uri,
            @HeaderParam("X-Forwarded-Proto") String proto, @HeaderParam("X-Forwarded-Host") String host) {
        return service.invoice(body, payment, signature, urls.of(uri, proto, host)).map(X402Resource::response);
    }

    @POST
    @Path("/settle")
    public Uni<Response> settle(String body, @HeaderParam("X-PAYMENT") String payment,
            @HeaderParam("PAYMENT-SIGNATURE") String signature, @Context UriInfo uri,
            @HeaderParam("X-Forwarded-Proto") String proto, @HeaderParam("X-Forwarded-Host") String host) {
        return service.settle(body, payment, signature, urls.of(uri, proto, host)).map(X402Resource::response);
    }

    /** CORS preflight (headers added by {@link X402Cors}). */
    @OPTIONS
    @Path("/{any: .*}")
    public Response preflight() {
        return Response.noContent().build();
    }

    static Response response(X402Result r) {
        Response.ResponseBuilder b = Response.status(r.status()).entity(r.body()).type(MediaType.APPLICATION_JSON);
        r.headers().forEach(b::header);
        if (r.status() == 402) {
            b.header("Cache-Control", "no-store");
        }
        return b.build();
    }
}
