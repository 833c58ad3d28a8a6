package dev.agentpay.mandate.oauth.rest;

import dev.agentpay.commons.auth.AdminOnly;
import dev.agentpay.mandate.oauth.rest.OAuthApi.ClientView;
import dev.agentpay.mandate.oauth.rest.OAuthApi.CreateClientRequest;
import dev.agentpay.mandate.oauth.service.OAuthClientService;
import dev.agentpay.mandate.config.ApiJson;
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
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestPath;

/** Operator endpoints ({@code x-admin-key}) for a partner's OAuth clients. */
@Path("/admin/partners/{id}/oauth-clients")
@AdminOnly
@Tag(name = "Admin: OAuth")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class OAuthClientAdminResource {

    @Inject
    OAuthClientService clients;

    @POST
    @Operation(operationId = "createOAuthClient", summary = "Issue an OAuth client for a partner",
            description = "client_secret is shown in this answer only and stored as its SHA-256.")
    @APIResponse(responseCode = "201", description = "issued", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = ClientView.class)))
    @APIResponse(responseCode = "400", description = OAuthApi.INVALID_SCOPE)
    @APIResponse(responseCode = "404", description = OAuthApi.PARTNER_NOT_FOUND)
    @APIResponse(responseCode = "409", description = "`partner_revoked`, or `too_many_clients` (20 active clients)")
    public Uni<Response> createOAuthClient(@RestPath String id, @Valid @NotNull CreateClientRequest body) {
        return clients.create(id, body.name(), body.scopes()).map(c -> Response.status(201).type(MediaType.APPLICATION_JSON_TYPE)
                .entity(ApiJson.envelope(ClientView.of(c))).build());
    }

    @GET
    @Operation(operationId = "listOAuthClients", summary = "List a partner's OAuth clients")
    @APIResponse(responseCode = "200", description = "every client of the partner, revoked ones included",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.ARRAY, implementation = ClientView.class)))
    @APIResponse(responseCode = "404", description = OAuthApi.PARTNER_NOT_FOUND)
    public Uni<Response> listOAuthClients(@RestPath String id) {
        return clients.list(id).map(l -> Responses.ok(l.stream().map(ClientView::of).toList()));
    }

    @POST
    @Path("/{clientId}/revoke")
    @Operation(operationId = "revokeOAuthClient", summary = "Revoke an OAuth client",
            description = "Its tokens are refused by every service once the registries apply the change (seconds); a repeat is a no-op.")
    @APIResponse(responseCode = "200", description = "revoked", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = ClientView.class)))
    @APIResponse(responseCode = "404", description = "`partner_not_found` or `client_not_found`")
    public Uni<Response> revokeOAuthClient(@RestPath String id, @RestPath String clientId) {
        return clients.revoke(id, clientId).map(c -> Responses.ok(ClientView.of(c)));
    }
}
