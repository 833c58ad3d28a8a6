package dev.agentpay.mandate.mandates.rest;

import dev.agentpay.mandate.mandates.domain.MandateProof;
import dev.agentpay.mandate.mandates.domain.PublicMandateView;
import dev.agentpay.mandate.mandates.service.MandateQueries;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestPath;

/**
 * What anyone holding a mandate id may read without an API key: the redacted view, and the proof (which
 * discloses the signed content, scope and terms included, so that a third party can verify it).
 */
@Path("/v1/public/mandates/{id}")
@Tag(name = "Public mandates")
@Produces(MediaType.APPLICATION_JSON)
@APIResponse(responseCode = "404", description = "no such mandate (`mandate_not_found`)")
public class PublicMandateResource {

    @Inject
    MandateQueries service;

    @GET
    @Operation(operationId = "getPublicMandate", summary = "Read a mandate's redacted public view, no key needed")
    @APIResponse(responseCode = "200", description = "the redacted public view", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PublicMandateView.class)))
    public Uni<Response> get(@RestPath String id) {
        return service.publicView(id).map(Responses::ok);
    }

    /** The mandate's proof: signed content, signatures and anchors (format: /disco/reference/mandate-proof.md). */
    @GET
    @Path("/proof")
    @Operation(operationId = "getMandateProof", summary = "Read a mandate's proof: signed content, signatures and anchors")
    @APIResponse(responseCode = "200", description = "the proof: signed content, signatures, anchors", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MandateProof.class)))
    public Uni<Response> proof(@RestPath String id) {
        return service.proof(id).map(Responses::ok);
    }
}
