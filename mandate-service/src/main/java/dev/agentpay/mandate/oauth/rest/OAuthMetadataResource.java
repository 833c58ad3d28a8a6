package dev.agentpay.mandate.oauth.rest;

import dev.agentpay.commons.auth.AuthConfig;
import dev.agentpay.commons.auth.Scopes;
import dev.agentpay.commons.auth.oauth.BearerVerifier;
import dev.agentpay.commons.rest.OpenApiContract;
import dev.agentpay.mandate.oauth.rest.OAuthApi.JwkSet;
import dev.agentpay.mandate.oauth.service.SigningKeys;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
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

/**
 * The public OAuth documents: the signing keys ({@code /.well-known/jwks.json}), the authorization server's
 * metadata (RFC 8414) and the API's protected-resource metadata (RFC 9728; MCP clients start there, at the root
 * or with the MCP endpoint's path appended).
 */
@Path("/.well-known")
@Tag(name = "OAuth 2.0")
@Produces(MediaType.APPLICATION_JSON)
public class OAuthMetadataResource {

    @Inject
    SigningKeys keys;

    @Inject
    AuthConfig auth;

    @GET
    @Path("/jwks.json")
    @org.eclipse.microprofile.openapi.annotations.extensions.Extension(name = dev.agentpay.commons.rest.OpenApiContract.BARE, value = "true")
    @Operation(operationId = "getJwks", summary = "The access tokens' signing keys",
            description = "A JWK set (RFC 7517) of public ES256 keys. During a rotation it holds two: the key that signs and "
                    + "the previous one until the last token it signed has expired. Fetch it again when a token names a kid "
                    + "you do not know.")
    @APIResponse(responseCode = "200", description = "the JWK set",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = JwkSet.class)))
    public Uni<Response> jwks() {
        return keys.signer().flatMap(s -> keys.jwks()).map(j -> Response.ok(j.encode(), MediaType.APPLICATION_JSON_TYPE)
                .header("Cache-Control", "public, max-age=60").build());
    }

    @GET
    @Path("/oauth-authorization-server")
    @Operation(operationId = "getAuthorizationServerMetadata", summary = "OAuth 2.0 authorization server metadata (RFC 8414)")
    @APIResponse(responseCode = "200", description = "the metadata document",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = org.eclipse.microprofile.openapi.annotations.enums.SchemaType.OBJECT)))
    public Response authorizationServer() {
        return ok(authorizationServerMetadata(auth));
    }

    @GET
    @Path("/oauth-protected-resource")
    @Operation(operationId = "getProtectedResourceMetadata", summary = "OAuth 2.0 protected resource metadata (RFC 9728)")
    @APIResponse(responseCode = "200", description = "the metadata document",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = org.eclipse.microprofile.openapi.annotations.enums.SchemaType.OBJECT)))
    public Response protectedResource() {
        return ok(protectedResourceMetadata(auth, null));
    }

    @GET
    @Path("/oauth-protected-resource/{resourcePath: .+}")
    @Operation(operationId = "getProtectedResourceMetadataForPath", summary = "Protected resource metadata of a resource path (RFC 9728 §3.1)",
            description = "The same document for a resource under the API, e.g. `/.well-known/oauth-protected-resource/disco/mcp` "
                    + "for the MCP endpoint; `resource` names that URL.")
    @APIResponse(responseCode = "200", description = "the metadata document",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = org.eclipse.microprofile.openapi.annotations.enums.SchemaType.OBJECT)))
    public Response protectedResourcePath(@jakarta.ws.rs.PathParam("resourcePath") String resourcePath) {
        return ok(protectedResourceMetadata(auth, resourcePath));
    }

    static JsonObject authorizationServerMetadata(AuthConfig auth) {
        String issuer = auth.oauth().issuer().replaceAll("/+$", "");
        return new JsonObject()
                .put("issuer", auth.oauth().issuer())
                .put("token_endpoint", issuer + OpenApiContract.TOKEN_URL)
                .put("jwks_uri", issuer + "/.well-known/jwks.json")
                .put("grant_types_supported", new JsonArray(List.of("client_credentials")))
                .put("token_endpoint_auth_methods_supported", new JsonArray(List.of("client_secret_basic", "client_secret_post")))
                .put("scopes_supported", new JsonArray(List.copyOf(Scopes.ALL.keySet())))
                .put("response_types_supported", new JsonArray())
                .put("service_documentation", issuer + "/disco/reference/authentication.md");
    }

    static JsonObject protectedResourceMetadata(AuthConfig auth, String path) {
        String base = auth.oauth().audience().replaceAll("/+$", "");
        String resource = path == null ? auth.oauth().audience() : base + "/" + path.replaceAll("^/+", "");
        return new JsonObject()
                .put("resource", resource)
                .put("authorization_servers", new JsonArray(List.of(auth.oauth().issuer())))
                .put("scopes_supported", new JsonArray(List.copyOf(Scopes.ALL.keySet())))
                .put("bearer_methods_supported", new JsonArray(List.of("header")))
                .put("resource_signing_alg_values_supported", new JsonArray(List.of(BearerVerifier.ALGORITHM)))
                .put("resource_documentation", base + "/disco/reference/authentication.md");
    }

    private static Response ok(JsonObject o) {
        return Response.ok(o.encode(), MediaType.APPLICATION_JSON_TYPE).header("Cache-Control", "public, max-age=300").build();
    }
}
