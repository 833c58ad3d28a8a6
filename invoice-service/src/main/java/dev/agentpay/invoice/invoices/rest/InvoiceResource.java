package dev.agentpay.invoice.invoices.rest;

import dev.agentpay.commons.auth.CurrentPartner;
import dev.agentpay.commons.auth.PartnerAuthenticated;
import dev.agentpay.commons.auth.Scopes;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.rest.Envelope;
import dev.agentpay.commons.rest.PageLimit;
import dev.agentpay.invoice.invoices.domain.InvoiceStatus;
import dev.agentpay.invoice.invoices.domain.InvoiceView;
import dev.agentpay.invoice.domain.Page;
import dev.agentpay.invoice.invoices.service.InvoiceService;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Locale;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The Invoice API: create, read, and list the caller's invoices. */
@Path("/v1/invoices")
@Produces(MediaType.APPLICATION_JSON)
@PartnerAuthenticated
@Tag(name = "Invoices")
public class InvoiceResource {

    @Inject
    CurrentPartner partner;

    /**
     * An invoice status in any case, blanks around it allowed. Written without Java's inline {@code (?i)} flag so that
     * the document's {@code pattern} is a valid ECMA-262 expression too (JSON Schema's dialect).
     */
    static final String STATUS = "\\s*([Pp][Ee][Nn][Dd][Ii][Nn][Gg]|[Ss][Ee][Tt][Tt][Ll][Ee][Dd]|[Ee][Xx][Pp][Ii][Rr][Ee][Dd])?\\s*";

    @Inject
    InvoiceService invoices;

    @Scopes.InvoicesWrite
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(operationId = "createInvoice", summary = "Create a USDC invoice with its own payment address")
    @APIResponse(responseCode = "201", description = "created, PENDING, with its payment address", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = InvoiceView.class)))
    @APIResponse(responseCode = "400", description = "bad input naming the field: `validation_error`, `invalid_json`, `invalid_body`,"
            + " `unsupported_chain`, `unsupported_currency`, or `chain_not_configured` (no seller wallet on this deployment)")
    public Uni<Response> create(@Valid @NotNull InvoiceApi.CreateInvoiceRequest body) {
        return invoices.create(partner.id(), body.toNewInvoice())
                .map(v -> Response.status(201).entity(Envelope.of(v)).build());
    }

    @Scopes.InvoicesRead
    @GET
    @Path("/{id}")
    @Operation(operationId = "getInvoice", summary = "Read one of your invoices")
    @APIResponse(responseCode = "200", description = "the invoice", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = InvoiceView.class)))
    @APIResponse(responseCode = "404", description = "no such invoice for this partner (`invoice_not_found`)")
    public Uni<Envelope<InvoiceView>> get(@PathParam("id") String id) {
        UUID uuid;
        try {
            uuid = UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw ApiException.notFound("invoice_not_found", "no invoice with this id");
        }
        return invoices.get(partner.id(), uuid).map(Envelope::of);
    }

    @Scopes.InvoicesRead
    @GET
    @Operation(operationId = "listInvoices", summary = "List your invoices, newest first")
    @APIResponse(responseCode = "200", description = "the caller's invoices, newest first")
    public Uni<Envelope<Page<InvoiceView>>> list(@Parameter(description = PageLimit.DESCRIPTION) @QueryParam("limit")
            @Pattern(regexp = PageLimit.WHOLE_NUMBER, message = PageLimit.NOT_A_WHOLE_NUMBER) String limit,
            @Parameter(description = "`nextCursor` of the previous page") @QueryParam("cursor")
            @Size(max = 64, message = "is not a cursor returned by this API") String cursor,
            @Parameter(description = "only invoices in this status (any case)") @QueryParam("status")
            @Pattern(regexp = STATUS, message = "must be PENDING, SETTLED or EXPIRED") String status) {
        InvoiceStatus only = status == null || status.isBlank() ? null : InvoiceStatus.valueOf(status.trim().toUpperCase(Locale.ROOT));
        return invoices.list(partner.id(), limit, cursor, only).map(Envelope::of);
    }
}
