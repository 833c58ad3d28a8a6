package dev.agentpay.mandate.rest;

import dev.agentpay.commons.auth.CurrentPartner;
import dev.agentpay.commons.auth.PartnerAuthenticated;
import dev.agentpay.commons.rest.OpenApiContract;
import dev.agentpay.mandate.domain.ReceiptView;
import dev.agentpay.mandate.service.MandateService;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestPath;

/** DRS receipts issued when a mandate's counterparty signs; readable by the owning partner only. */
@Path("/v1/receipts")
@PartnerAuthenticated
@SecurityRequirement(name = OpenApiContract.API_KEY)
@Tag(name = "Receipts")
@Produces(MediaType.APPLICATION_JSON)
public class ReceiptResource {

    @Inject
    MandateService service;

    @Inject
    CurrentPartner partner;

    @GET
    @Path("/{id}")
    @APIResponse(responseCode = "200", description = "the DRS receipt", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ReceiptView.class)))
    @APIResponse(responseCode = "404", description = "no such receipt for this partner (`receipt_not_found`)")
    public Uni<Response> get(@RestPath String id) {
        return service.receipt(partner.id(), id).map(Responses::ok);
    }
}
