package dev.agentpay.mandate.rest;

import dev.agentpay.mandate.service.MandateService;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.RestPath;

/**
 * What anyone holding a mandate id may read without an API key: the redacted view, and the proof (which
 * discloses the signed content, scope and terms included, so that a third party can verify it).
 */
@Path("/v1/public/mandates")
@Produces(MediaType.APPLICATION_JSON)
public class PublicMandateResource {

    @Inject
    MandateService service;

    @GET
    @Path("/{id}")
    public Uni<Response> get(@RestPath String id) {
        return service.publicView(id).map(Responses::ok);
    }

    /** The mandate's proof: signed content, signatures and anchors (format: /disco/reference/mandate-proof.md). */
    @GET
    @Path("/{id}/proof")
    public Uni<Response> proof(@RestPath String id) {
        return service.proof(id).map(Responses::ok);
    }
}
