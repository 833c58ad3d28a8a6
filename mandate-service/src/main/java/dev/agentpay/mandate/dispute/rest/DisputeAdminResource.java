package dev.agentpay.mandate.dispute.rest;

import dev.agentpay.commons.auth.AdminOnly;
import dev.agentpay.mandate.budget.domain.Usdc;
import dev.agentpay.mandate.dispute.domain.DisputeViews;
import dev.agentpay.mandate.dispute.rest.DisputeApi.ResolveRequest;
import dev.agentpay.mandate.dispute.service.DisputeService;
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

/** The operator's arbiter ({@code x-admin-key}; not routed by the public gateway): decides a dispute. */
@Path("/admin/v1/disputes")
@AdminOnly
@Tag(name = "Admin: disputes")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class DisputeAdminResource {

    @Inject
    DisputeService service;

    @POST
    @Path("/{id}/resolve")
    @Operation(operationId = "resolveDispute", summary = "Resolve a disputed mandate: split what is held between the parties",
            description = "`{id}` is the mandate id. The mandate moves `disputed -> resolved` (anchored; event and webhook "
                    + "`mandate.dispute_resolved`). A repeat is 409 `dispute_not_open`: read GET /v1/mandates/{id}/dispute.")
    @APIResponse(responseCode = "200", description = "resolved", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = DisputeViews.Resolved.class)))
    @APIResponse(responseCode = "400", description = "bad input naming the field (`validation_error`, `invalid_json`), or "
            + "`resolution_sum_mismatch`: to_counterparty + to_proposer is not what is held (the error carries `held`)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = DisputeApi.SumMismatchError.class)))
    @APIResponse(responseCode = "404", description = "`mandate_not_found`")
    @APIResponse(responseCode = "409", description = "`dispute_not_open`: the mandate is not disputed (never disputed, or "
            + "resolved already)")
    public Uni<Response> resolveDispute(@RestPath String id, @Valid @NotNull ResolveRequest body) {
        return service.resolve(id, Usdc.atomic(body.toCounterparty()), Usdc.atomic(body.toProposer()),
                        body.note() == null || body.note().isBlank() ? null : body.note())
                .map(Responses::ok)
                .onFailure(DisputeService.SumMismatch.class).recoverWithItem(e -> {
                    DisputeService.SumMismatch m = (DisputeService.SumMismatch) e;
                    return Responses.error(400, m.code(), m.getMessage(), "held", m.held());
                });
    }
}
