package dev.agentpay.mandate.oauth.rest;

import dev.agentpay.commons.auth.AdminOnly;
import dev.agentpay.mandate.oauth.rest.OAuthApi.ApiKeyScopesRequest;
import dev.agentpay.mandate.oauth.rest.OAuthApi.ApiKeyScopesView;
import dev.agentpay.mandate.oauth.service.OAuthClientService;
import dev.agentpay.mandate.mandates.rest.Responses;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
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

/** Operator endpoints ({@code x-admin-key}) for the scopes of a partner's API key. */
@Path("/admin/partners/{id}/api-key-scopes")
@AdminOnly
@Tag(name = "Admin: OAuth")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class ApiKeyScopesAdminResource {

    @Inject
    OAuthClientService clients;

    @GET
    @Operation(operationId = "getApiKeyScopes", summary = "The scopes a partner's API key may use")
    @APIResponse(responseCode = "200", description = "the key's scopes", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = ApiKeyScopesView.class)))
    @APIResponse(responseCode = "404", description = OAuthApi.PARTNER_NOT_FOUND)
    public Uni<Response> getApiKeyScopes(@RestPath String id) {
        return clients.keyScopes(id).map(s -> Responses.ok(ApiKeyScopesView.of(s)));
    }

    @PUT
    @Operation(operationId = "setApiKeyScopes", summary = "Restrict a partner's API key to scopes",
            description = "scopes: the list the key may use; null lifts the restriction (every scope, the default).")
    @APIResponse(responseCode = "200", description = "set", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = ApiKeyScopesView.class)))
    @APIResponse(responseCode = "400", description = OAuthApi.INVALID_SCOPE)
    @APIResponse(responseCode = "404", description = OAuthApi.PARTNER_NOT_FOUND)
    @APIResponse(responseCode = "409", description = "a revoked partner (`partner_revoked`)")
    public Uni<Response> setApiKeyScopes(@RestPath String id, @Valid @NotNull ApiKeyScopesRequest body) {
        return clients.setKeyScopes(id, body.scopes()).map(s -> Responses.ok(ApiKeyScopesView.of(s)));
    }
}
