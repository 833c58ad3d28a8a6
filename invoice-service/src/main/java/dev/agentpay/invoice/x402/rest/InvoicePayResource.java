package dev.agentpay.invoice.x402.rest;

import dev.agentpay.invoice.rest.Envelope;
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

/**
 * {@code POST /v1/invoices/{id}/pay}: pay any invoice with x402. No API key: the invoice id is the
 * capability (whoever knows it may pay it), the payment in {@code X-PAYMENT} / {@code PAYMENT-SIGNATURE}
 * the credential. The body is ignored. {@code GET} on the same path reads the invoice's state with the
 * same capability, free (how the buyer of an x402-created invoice watches it).
 */
@Path("/v1/invoices/{id}/pay")
@Produces(MediaType.APPLICATION_JSON)
public class InvoicePayResource {

    @Inject
    X402Service service;

    @Inject
    ResourceUrls urls;

    @POST
    public Uni<Response> pay(@PathParam("id") String id, @HeaderParam("X-PAYMENT") String payment,
            @HeaderParam("PAYMENT-SIGNATURE") String signature, @Context UriInfo uri,
            @HeaderParam("X-Forwarded-Proto") String proto, @HeaderParam("X-Forwarded-Host") String host) {
        return service.payInvoice(id, payment, signature, urls.of(uri, proto, host)).map(X402Resource::response);
    }

    @GET
    public Uni<Response> status(@PathParam("id") String id) {
        return service.invoiceStatus(id).map(inv -> Response.ok(Envelope.of(inv)).header("Cache-Control", "no-store").build());
    }

    /** CORS preflight (headers added by {@link X402Cors}). */
    @OPTIONS
    public Response preflight() {
        return Response.noContent().build();
    }
}
