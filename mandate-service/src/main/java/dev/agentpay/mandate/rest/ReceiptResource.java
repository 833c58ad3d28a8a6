package dev.agentpay.mandate.rest;

import dev.agentpay.commons.auth.CurrentPartner;
import dev.agentpay.commons.auth.PartnerAuthenticated;
import dev.agentpay.mandate.service.MandateService;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.RestPath;

/** DRS receipts issued when a mandate's counterparty signs; readable by the owning partner only. */
@Path("/v1/receipts")
@PartnerAuthenticated
@Produces(MediaType.APPLICATION_JSON)
public class ReceiptResource {

    @Inject
    MandateService service;

    @Inject
    CurrentPartner partner;

    @GET
    @Path("/{id}")
    public Uni<Response> get(@RestPath String id) {
        return service.receipt(partner.id(), id).map(Responses::ok);
    }
}
