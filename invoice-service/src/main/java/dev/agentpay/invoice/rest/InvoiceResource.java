package dev.agentpay.invoice.rest;

import dev.agentpay.commons.auth.CurrentPartner;
import dev.agentpay.commons.auth.PartnerAuthenticated;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.rest.Envelope;
import dev.agentpay.commons.rest.OpenApiContract;
import dev.agentpay.invoice.domain.InvoiceView;
import dev.agentpay.invoice.domain.Page;
import dev.agentpay.invoice.service.InvoiceRequests;
import dev.agentpay.invoice.service.InvoiceService;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import java.util.UUID;

/** The Invoice API: create, read, and list the caller's invoices. */
@Path("/v1/invoices")
@Produces(MediaType.APPLICATION_JSON)
@PartnerAuthenticated
@SecurityRequirement(name = OpenApiContract.API_KEY)
@Tag(name = "Invoices")
public class InvoiceResource {

    @Inject
    CurrentPartner partner;

    @Inject
    InvoiceRequests requests;

    @Inject
    InvoiceService invoices;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @APIResponse(responseCode = "201", description = "created, PENDING, with its payment address", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = InvoiceView.class)))
    public Uni<Response> create(@RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = InvoiceApi.CreateInvoiceRequest.class))) String body) {
        String partnerId = partner.id();
        return invoices.create(partnerId, requests.parse(body))
                .map(v -> Response.status(201).entity(Envelope.of(v)).build());
    }

    @GET
    @Path("/{id}")
    @APIResponse(responseCode = "200", description = "the invoice", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = InvoiceView.class)))
    @APIResponse(responseCode = "404", description = "no such invoice for this partner (`invoice_not_found`)")
    public Uni<Envelope<InvoiceView>> get(@PathParam("id") String id) {
        String partnerId = partner.id();
        UUID uuid;
        try {
            uuid = UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw invoiceNotFound();
        }
        return invoices.get(partnerId, uuid).map(Envelope::of);
    }

    @GET
    public Uni<Envelope<Page<InvoiceView>>> list(@QueryParam("limit") String limit, @QueryParam("cursor") String cursor,
            @QueryParam("status") String status) {
        return invoices.list(partner.id(), limit, cursor, status).map(Envelope::of);
    }

    private static RuntimeException invoiceNotFound() {
        return ApiException.notFound("invoice_not_found", "no invoice with this id");
    }
}
