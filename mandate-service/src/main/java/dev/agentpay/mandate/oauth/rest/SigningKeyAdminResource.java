package dev.agentpay.mandate.oauth.rest;

import dev.agentpay.commons.auth.AdminOnly;
import dev.agentpay.mandate.oauth.rest.OAuthApi.RotationView;
import dev.agentpay.mandate.oauth.service.SigningKeys;
import dev.agentpay.mandate.config.ApiJson;
import dev.agentpay.mandate.mandates.rest.Responses;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
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

/** Operator endpoint ({@code x-admin-key}) rotating the access tokens' signing key. */
@Path("/admin/oauth/signing-keys")
@AdminOnly
@Tag(name = "Admin: OAuth")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class SigningKeyAdminResource {

    @Inject
    SigningKeys keys;

    @POST
    @Path("/rotate")
    @Operation(operationId = "rotateSigningKey", summary = "Rotate the access tokens' signing key",
            description = "A new key signs from now on; the previous one stays in the JWK set until the tokens it signed have expired.")
    @APIResponse(responseCode = "200", description = "rotated", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = RotationView.class)))
    public Uni<Response> rotateSigningKey() {
        return keys.rotate().map(r -> Responses.ok(new RotationView(r.kid(), r.previousKid(),
                r.previousPublishedUntil() == null ? null : ApiJson.time(r.previousPublishedUntil()))));
    }
}
