package dev.agentpay.mandate.escrow.rest;

import dev.agentpay.commons.auth.CurrentPartner;
import dev.agentpay.commons.auth.PartnerAuthenticated;
import dev.agentpay.commons.auth.Scopes;
import dev.agentpay.mandate.escrow.domain.FundingInstructions;
import dev.agentpay.mandate.escrow.rest.EscrowFundingApi.FundEscrowRequest;
import dev.agentpay.mandate.escrow.service.EscrowFundingService;
import dev.agentpay.mandate.mandates.rest.Responses;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestPath;

/** How to fund a mandate's escrow on chain (issue 30; the owning partner only). */
@Path("/v1")
@PartnerAuthenticated
@Tag(name = "Mandates")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class EscrowFundingResource {

    @Inject
    EscrowFundingService service;

    @Inject
    CurrentPartner partner;

    @POST
    @Path("/mandates/{id}/escrow")
    @Scopes.MandatesWrite
    @Operation(operationId = "getEscrowFundingInstructions", summary = "Get what to sign or send to fund a mandate's budget "
            + "into the chain's escrow contract")
    @APIResponse(responseCode = "200", description = "the instructions (nothing is stored: the escrow exists once funded on "
            + "chain): contract, amount = the budget, escrow_id, and approve + fund calldata, or the EIP-3009 typed data to "
            + "sign and the fundWithAuthorization call to submit",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = FundingInstructions.class)))
    @APIResponse(responseCode = "400", description = "bad input naming the field (`validation_error`, `invalid_json`, "
            + "`invalid_body`), `unsupported_chain` (not an EVM chain), `escrow_not_available` (no escrow contract "
            + "configured on that chain)")
    @APIResponse(responseCode = "404", description = "no such mandate for this partner (`mandate_not_found`)")
    @APIResponse(responseCode = "409", description = "`mandate_not_signed` (not signed_by_both/signed_by_all), `no_budget`, "
            + "`mandate_expired`")
    public Uni<Response> getEscrowFundingInstructions(@RestPath String id, @Valid @NotNull FundEscrowRequest body) {
        return service.instructions(partner.id(), id, body.toRequest())
                .map(Responses::ok);
    }
}
