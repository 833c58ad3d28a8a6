package dev.agentpay.mandate.rest;

import dev.agentpay.commons.auth.AdminOnly;
import dev.agentpay.commons.auth.ApiKeys;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.rest.JsonRequest;
import dev.agentpay.commons.rest.OpenApiContract;
import dev.agentpay.mandate.config.MandateConfig;
import dev.agentpay.mandate.domain.PartnerRules;
import dev.agentpay.mandate.domain.PartnerView;
import dev.agentpay.mandate.service.PartnerService;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;

/** Operator endpoints ({@code x-admin-key}) that issue, import, rotate, revoke and list partners. */
@Path("/admin/partners")
@AdminOnly
@SecurityRequirement(name = OpenApiContract.ADMIN_KEY)
@Tag(name = "Admin: partners")
@Produces(MediaType.APPLICATION_JSON)
public class PartnerAdminResource {

    @Inject
    PartnerService service;

    @Inject
    MandateConfig config;

    @POST
    @APIResponse(responseCode = "201", description = "issued; api_key and signing_secret are shown once", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PartnerView.class)))
    public Uni<Response> create(@Parameter(hidden = true) @RestHeader(HttpHeaders.CONTENT_TYPE) String contentType,
            @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MandateApi.CreatePartnerRequest.class))) String body) {
        JsonRequest req = MandateFields.parse(contentType, body, config.maxBodyBytes(), false, Set.of("name"));
        return service.create(req.requiredString("name", PartnerRules.NAME_MAX)).map(Responses::of);
    }

    @PUT
    @APIResponse(responseCode = "200", description = "already present with this key", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PartnerView.class)))
    @APIResponse(responseCode = "201", description = "imported", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PartnerView.class)))
    @Path("/{id}")
    public Uni<Response> importPartner(@RestPath String id, @Parameter(hidden = true) @RestHeader(HttpHeaders.CONTENT_TYPE) String contentType,
            @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = MandateApi.ImportPartnerRequest.class))) String body) {
        PartnerRules.checkId(id);
        JsonRequest req = MandateFields.parse(contentType, body, config.maxBodyBytes(), false,
                Set.of("name", "api_key", "signing_secret", "status"));
        String name = req.requiredString("name", PartnerRules.NAME_MAX);
        String apiKey = req.requiredString("api_key", 67);
        if (!ApiKeys.wellFormed(apiKey)) {
            throw ApiException.invalidField("api_key", "must be sk_ followed by 64 lowercase hex characters");
        }
        String secret = req.requiredString("signing_secret", PartnerRules.SECRET_MAX);
        PartnerRules.checkSecret(secret);
        String status = PartnerRules.status(req.optionalString("status", 16));
        return service.importPartner(id, name, apiKey, secret, status).map(Responses::of);
    }

    @GET
    @APIResponse(responseCode = "200", description = "every partner", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = org.eclipse.microprofile.openapi.annotations.enums.SchemaType.ARRAY, implementation = PartnerView.class)))
    public Uni<Response> list() {
        return service.list().map(Responses::ok);
    }

    @GET
    @Path("/{id}")
    @APIResponse(responseCode = "200", description = "the partner", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PartnerView.class)))
    @APIResponse(responseCode = "404", description = "no such partner (`partner_not_found`)")
    public Uni<Response> get(@RestPath String id) {
        return service.get(id).map(Responses::ok);
    }

    @POST
    @Path("/{id}/rotate-key")
    @APIResponse(responseCode = "200", description = "done; a rotation shows the new value once", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PartnerView.class)))
    @APIResponse(responseCode = "404", description = "no such partner (`partner_not_found`)")
    public Uni<Response> rotateKey(@RestPath String id) {
        return service.rotateKey(id).map(Responses::of);
    }

    @POST
    @Path("/{id}/rotate-signing-secret")
    @APIResponse(responseCode = "200", description = "done; a rotation shows the new value once", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PartnerView.class)))
    @APIResponse(responseCode = "404", description = "no such partner (`partner_not_found`)")
    public Uni<Response> rotateSigningSecret(@RestPath String id) {
        return service.rotateSigningSecret(id).map(Responses::of);
    }

    @POST
    @Path("/{id}/revoke")
    @APIResponse(responseCode = "200", description = "done; a rotation shows the new value once", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PartnerView.class)))
    @APIResponse(responseCode = "404", description = "no such partner (`partner_not_found`)")
    public Uni<Response> revoke(@RestPath String id) {
        return service.revoke(id).map(Responses::of);
    }
}
