package dev.agentpay.invoice.x402.rest;

import dev.agentpay.commons.rest.OpenApiContract;
import dev.agentpay.invoice.rest.InvoiceApi;
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
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The x402 pay-per-call endpoints. No API key: the payment in {@code X-PAYMENT} (x402 v1) or
 * {@code PAYMENT-SIGNATURE} (v2) is the credential. Bodies are read as text so that any content type
 * an x402 client sends is accepted and validated the same way.
 */
@Path("/api/x402")
@Tag(name = "x402")
@SecurityRequirementsSet(value = {})
@SecurityRequirementsSet(@SecurityRequirement(name = OpenApiContract.X402_PAYMENT))
@SecurityRequirementsSet(@SecurityRequirement(name = OpenApiContract.X402_SIGNATURE))
@Produces(MediaType.APPLICATION_JSON)
public class X402Resource {

    /** The 402 answer of every x402 operation. */
    static final String PAYMENT_REQUIRED = "payment required: the x402 challenge (`accepts`, and the `PAYMENT-REQUIRED` "
            + "header for v2), or a refused payment";

    @Inject
    X402Service service;

    @Inject
    ResourceUrls urls;

    @POST
    @Path("/invoice")
    @APIResponse(responseCode = "200", description = "paid: the invoice, settled; `X-PAYMENT-RESPONSE` / `PAYMENT-RESPONSE` carry the settlement")
    @APIResponse(responseCode = "402", description = PAYMENT_REQUIRED, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = InvoiceApi.X402PaymentRequired.class)))
    public Uni<Response> invoice(@RequestBody(content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = InvoiceApi.X402InvoiceRequest.class))) String body, @Parameter(hidden = true) @HeaderParam("X-PAYMENT") String payment,
            @Parameter(hidden = true) @HeaderParam("PAYMENT-SIGNATURE") String signature, @Context UriInfo uri,
            @Parameter(hidden = true) @HeaderParam("X-Forwarded-Proto") String proto,
            @Parameter(hidden = true) @HeaderParam("X-Forwarded-Host") String host) {
        return service.invoice(body, payment, signature, urls.of(uri, proto, host)).map(X402Resource::response);
    }

    @POST
    @Path("/settle")
    @APIResponse(responseCode = "200", description = "paid: the invoice, settled")
    @APIResponse(responseCode = "402", description = PAYMENT_REQUIRED, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = InvoiceApi.X402PaymentRequired.class)))
    @APIResponse(responseCode = "404", description = "no such invoice (`invoice_not_found`)")
    public Uni<Response> settle(@RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = InvoiceApi.X402SettleRequest.class))) String body, @Parameter(hidden = true) @HeaderParam("X-PAYMENT") String payment,
            @Parameter(hidden = true) @HeaderParam("PAYMENT-SIGNATURE") String signature, @Context UriInfo uri,
            @Parameter(hidden = true) @HeaderParam("X-Forwarded-Proto") String proto,
            @Parameter(hidden = true) @HeaderParam("X-Forwarded-Host") String host) {
        return service.settle(body, payment, signature, urls.of(uri, proto, host)).map(X402Resource::response);
    }

    /** CORS preflight (headers added by {@link X402Cors}). */
    @OPTIONS
    @Operation(hidden = true)
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
