package dev.agentpay.mandate.dispute.rest;

import dev.agentpay.commons.auth.CurrentPartner;
import dev.agentpay.commons.auth.PartnerAuthenticated;
import dev.agentpay.commons.auth.Scopes;
import dev.agentpay.mandate.dispute.domain.DisputeViews;
import dev.agentpay.mandate.dispute.rest.DisputeApi.EvidenceRequest;
import dev.agentpay.mandate.dispute.service.DisputeService;
import dev.agentpay.mandate.idempotency.service.IdempotencyService;
import dev.agentpay.mandate.mandates.rest.Responses;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;

/** The partner side of disputes (issue 30): evidence from each party, and the case (the owning partner only). */
@Path("/v1")
@PartnerAuthenticated
@Tag(name = "Disputes")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class DisputeResource {

    @Inject
    DisputeService service;

    @Inject
    IdempotencyService idempotency;

    @Inject
    CurrentPartner partner;

    @Scopes.DisputesWrite
    @POST
    @Path("/mandates/{id}/dispute/evidence")
    @Operation(operationId = "addDisputeEvidence", summary = "Add evidence to a disputed mandate for one of its parties",
            description = "Text (at most 10,000 characters) and at most 5 links, stored with its SHA-256 (of "
                    + "JSON.stringify({links, mandate_id, party, text})) and anchored like a transition: a `disputed -> "
                    + "disputed` row of the mandate's transitions and the `mandate.dispute_evidence` event. Honours "
                    + "Idempotency-Key.")
    @APIResponse(responseCode = "201", description = "recorded; anchor_status pending until its anchor receipt is recorded",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = DisputeViews.EvidenceView.class)))
    @APIResponse(responseCode = "400", description = "bad input naming the field (`validation_error`, `invalid_json`, "
            + "`invalid_body`), or `invalid_party`: not one of the mandate's parties")
    @APIResponse(responseCode = "404", description = "`mandate_not_found`: no such mandate for this partner (a partner that "
            + "is not the mandate's)")
    @APIResponse(responseCode = "409", description = "`dispute_not_open` (the mandate is not disputed: never disputed, or "
            + "resolved), `dispute_deadline_passed`, `evidence_limit` (50 pieces per party), `idempotency_key_reused`, "
            + "`idempotency_key_in_use`")
    public Uni<Response> addDisputeEvidence(@RestPath String id, @RestHeader("Idempotency-Key") String idemKey,
            @Valid @NotNull EvidenceRequest body) {
        IdempotencyService.Key key = idempotency.key(idemKey, "POST", "/v1/mandates/" + id + "/dispute/evidence", body);
        String by = body.triggeredBy() == null || body.triggeredBy().isBlank() ? "system" : body.triggeredBy();
        var req = new DisputeService.NewEvidence(body.party(), body.text(), body.links() == null ? List.of() : body.links(), by);
        return service.addEvidence(partner.id(), key, id, req).map(Responses::of);
    }

    @Scopes.MandatesRead
    @GET
    @Path("/mandates/{id}/dispute")
    @Operation(operationId = "getDispute", summary = "Read a mandate's dispute: reason, each party's evidence, deadline, outcome")
    @APIResponse(responseCode = "200", description = "the case", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = DisputeViews.CaseView.class)))
    @APIResponse(responseCode = "404", description = "`mandate_not_found` (unknown, or another partner's), `no_dispute` "
            + "(the mandate was never disputed)")
    public Uni<Response> getDispute(@RestPath String id) {
        return service.dispute(partner.id(), id).map(Responses::ok);
    }
}
