package dev.agentpay.invoice.x402.rest;

import dev.agentpay.commons.rest.Envelope;
import dev.agentpay.commons.rest.OpenApiContract;
import dev.agentpay.invoice.invoices.domain.InvoiceView;
import dev.agentpay.invoice.invoices.rest.InvoiceApi;
import dev.agentpay.invoice.x402.service.X402Service;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.OPTIONS;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
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

    static final String ID = "the invoice id (a UUID); a malformed or unknown id is 404 `invoice_not_found`";

    @Inject
    X402Service service;

    @Inject
    ResourceUrls urls;

    @POST
    @Operation(operationId = "payInvoice", summary = "Pay an invoice with x402", description = "Without a payment header: the 402 challenge asking for what the"
            + " invoice still asks for, paid to its own deposit address. With one: the payment is checked, claimed and settled, and"
            + " the invoice counts it. The request body is ignored.")
    @SecurityRequirementsSet(value = {})
    @SecurityRequirementsSet(@SecurityRequirement(name = OpenApiContract.X402_PAYMENT))
    @SecurityRequirementsSet(@SecurityRequirement(name = OpenApiContract.X402_SIGNATURE))
    @APIResponse(responseCode = "200", description = "paid: the invoice (`capability` `pay`) without the customer's personal fields,"
            + " SETTLED by this payment", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = InvoiceApi.X402Success.class)),
            headers = @Header(name = "X-PAYMENT-RESPONSE", description = "base64 JSON `{success, transaction, network, payer}`",
                    schema = @Schema(type = org.eclipse.microprofile.openapi.annotations.enums.SchemaType.STRING)))
    @APIResponse(responseCode = "402", description = X402Resource.PAYMENT_REQUIRED, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = InvoiceApi.X402PaymentRequired.class)),
            headers = @Header(name = "PAYMENT-REQUIRED", description = "x402 v2: base64 JSON `{x402Version: 2, error, resource, accepts}`",
                    schema = @Schema(type = org.eclipse.microprofile.openapi.annotations.enums.SchemaType.STRING)))
    @APIResponse(responseCode = "400", description = "the invoice is on a chain x402 does not pay here (`x402_unsupported_chain`:"
            + " the message says what to send where with a plain transfer)")
    @APIResponse(responseCode = "404", description = "no such invoice (`invoice_not_found`)")
    @APIResponse(responseCode = "409", description = "the invoice is already SETTLED (`invoice_already_settled`); nothing charged")
    @APIResponse(responseCode = "410", description = "the invoice has EXPIRED or is past its `expiresAt` (`invoice_expired`); nothing charged")
    @APIResponse(responseCode = "503", description = "the facilitator is unavailable (`facilitator_unavailable`, `result_pending`)")
    public Uni<Response> pay(@Parameter(description = ID) @PathParam("id") String id, @BeanParam PaidCall call) {
        return service.payInvoice(id, call.payment, call.signature, call.resourceUrl(urls)).map(X402Resource::response);
    }

    @GET
    @Operation(operationId = "getInvoicePaymentStatus", summary = "Read an invoice by its id, free", description = "The invoice's state for whoever holds its id (the same"
            + " capability as paying it), without the customer's personal fields; `Cache-Control: no-store`. Never asks for a payment.")
    @APIResponse(responseCode = "200", description = "the invoice without customerEmail and customerName (the description, the partner's text for the payer, stays)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = InvoiceView.class)))
    @APIResponse(responseCode = "404", description = "no such invoice (`invoice_not_found`)")
    public Uni<Response> status(@Parameter(description = ID) @PathParam("id") String id) {
        return service.invoiceStatus(id).map(inv -> Response.ok(Envelope.of(inv)).header("Cache-Control", "no-store").build());
    }

    /** CORS preflight (headers added by {@link X402Cors}). */
    @OPTIONS
    @Operation(hidden = true)
    public Response preflight() {
        return Response.noContent().build();
    }
}
