package dev.agentpay.invoice.rest;

import dev.agentpay.commons.auth.CurrentPartner;
import dev.agentpay.commons.auth.PartnerAuthenticated;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.rest.Envelope;
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
import java.util.UUID;

/** The Invoice API: create, read, and list the caller's invoices. */
@Path("/v1/invoices")
@Produces(MediaType.APPLICATION_JSON)
@PartnerAuthenticated
public class InvoiceResource {

    @Inject
    CurrentPartner partner;

    @Inject
    InvoiceRequests requests;

    @Inject
    InvoiceService invoices;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> create(String body) {
        String partnerId = partner.id();
        return invoices.create(partnerId, requests.parse(body))
                .map(v -> Response.status(201).entity(Envelope.of(v)).build());
    }

    @GET
    @Path("/{id}")
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
