package dev.agentpay.invoice.x402.rest;

import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.rest.OpenApiContract;
import dev.agentpay.invoice.invoices.rest.InvoiceApi;
import dev.agentpay.invoice.x402.domain.InvoiceOrder;
import dev.agentpay.invoice.x402.domain.X402Result;
import dev.agentpay.invoice.x402.service.X402Service;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.OPTIONS;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirementsSet;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The x402 pay-per-call endpoints. No API key: the payment in {@code X-PAYMENT} (x402 v1) or
 * {@code PAYMENT-SIGNATURE} (v2) is the credential. The body is a typed record, bound and validated before
 * any payment is looked at, so a bad request is a 400 and never charged.
 */
@Path("/api/x402")
@Tag(name = "x402")
@SecurityRequirementsSet(value = {})
@SecurityRequirementsSet(@SecurityRequirement(name = OpenApiContract.X402_PAYMENT))
@SecurityRequirementsSet(@SecurityRequirement(name = OpenApiContract.X402_SIGNATURE))
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
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
    @Operation(operationId = "createX402Invoice", summary = "Buy an invoice with an x402 payment (pay per call)")
    @APIResponse(responseCode = "200", description = "paid: the invoice created, `{id, status}`; `X-PAYMENT-RESPONSE` /"
            + " `PAYMENT-RESPONSE` carry the settlement", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = InvoiceApi.X402Success.class)))
    @APIResponse(responseCode = "402", description = PAYMENT_REQUIRED, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = InvoiceApi.X402PaymentRequired.class)))
    @APIResponse(responseCode = "503", description = "the facilitator or the invoice chain is unavailable"
            + " (`facilitator_unavailable`, `x402_unavailable`, `result_pending`)")
    public Uni<Response> invoice(@RequestBody(required = false, description = "optional: an absent body asks for the defaults")
            @Valid InvoiceApi.X402InvoiceRequest body, @BeanParam PaidCall call) {
        InvoiceOrder order = body == null ? null
                : new InvoiceOrder(body.issuer(), body.recipient(), body.email(), body.amount(), body.description());
        return service.invoice(order, call.payment, call.signature, call.resourceUrl(urls)).map(X402Resource::response);
    }

    @POST
    @Path("/settle")
    @Operation(operationId = "settleX402Invoice", summary = "Settle an existing invoice with an x402 payment")
    @APIResponse(responseCode = "200", description = "paid: the invoice without the customer's personal fields",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = InvoiceApi.X402Success.class)))
    @APIResponse(responseCode = "402", description = PAYMENT_REQUIRED, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = InvoiceApi.X402PaymentRequired.class)))
    @APIResponse(responseCode = "404", description = "no such invoice (`invoice_not_found`)")
    @APIResponse(responseCode = "503", description = "the facilitator is unavailable (`facilitator_unavailable`, `result_pending`)")
    public Uni<Response> settle(@RequestBody(required = true) @Valid InvoiceApi.X402SettleRequest body, @BeanParam PaidCall call) {
        if (body == null) {
            throw ApiException.invalidField("invoice_id", "is required");
        }
        return service.settle(UUID.fromString(body.invoiceId()), call.payment, call.signature, call.resourceUrl(urls))
                .map(X402Resource::response);
    }

    /** CORS preflight (headers added by {@link X402Cors}). */
    @OPTIONS
    @Operation(hidden = true)
    @Path("/{any: .*}")
    @Consumes(MediaType.WILDCARD)
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
