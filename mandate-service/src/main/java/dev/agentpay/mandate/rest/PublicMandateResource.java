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

/** The redacted mandate view anyone holding the id may read, without an API key. */
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
}
