package dev.agentpay.invoice.x402.rest;

import dev.agentpay.commons.rest.Envelope;
import dev.agentpay.commons.rest.OpenApiContract;
import dev.agentpay.invoice.rest.InvoiceApi;
import dev.agentpay.invoice.x402.service.X402Service;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.OPTIONS;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code POST /v1/invoices/{id}/pay}: pay any invoice with x402. No API key: the invoice id is the
 * capability (whoever knows it may pay it), the payment in {@code X-PAYMENT} / {@code PAYMENT-SIGNATURE}
 * the credential. The body is ignored. {@code GET} on the same path reads the invoice's state with the
 * same capability, free (how the buyer of an x402-created invoice watches it).
 */
@Path("/v1/invoices/{id}/pay")
@Tag(name = "x402")
@Produces(MediaType.APPLICATION_JSON)
public class InvoicePayResource {

    @Inject
    X402Service service;

    @Inject
    ResourceUrls urls;

    @POST
    @SecurityRequirementsSet(value = {})
    @SecurityRequirementsSet(@SecurityRequirement(name = OpenApiContract.X402_PAYMENT))
    @SecurityRequirementsSet(@SecurityRequirement(name = OpenApiContract.X402_SIGNATURE))
    @APIResponse(responseCode = "200", description = "paid: the invoice, settled")
    @APIResponse(responseCode = "402", description = X402Resource.PAYMENT_REQUIRED, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = InvoiceApi.X402PaymentRequired.class)))
    @APIResponse(responseCode = "404", description = "no such invoice (`invoice_not_found`)")
    @APIResponse(responseCode = "409", description = "the invoice is not payable (already settled, expired)")
    public Uni<Response> pay(@PathParam("id") String id, @Parameter(hidden = true) @HeaderParam("X-PAYMENT") String payment,
            @Parameter(hidden = true) @HeaderParam("PAYMENT-SIGNATURE") String signature, @Context UriInfo uri,
            @Parameter(hidden = true) @HeaderParam("X-Forwarded-Proto") String proto,
            @Parameter(hidden = true) @HeaderParam("X-Forwarded-Host") String host) {
        return service.payInvoice(id, payment, signature, urls.of(uri, proto, host)).map(X402Resource::response);
    }

    @GET
    @APIResponse(responseCode = "200", description = "the invoice's state, as a settlement answers it (free; the invoice id is the capability)")
    @APIResponse(responseCode = "404", description = "no such invoice (`invoice_not_found`)")
    public Uni<Response> status(@PathParam("id") String id) {
        return service.invoiceStatus(id).map(inv -> Response.ok(Envelope.of(inv)).header("Cache-Control", "no-store").build());
    }

    /** CORS preflight (headers added by {@link X402Cors}). */
    @OPTIONS
    @Operation(hidden = true)
    public Response preflight() {
        return Response.noContent().build();
    }
}
