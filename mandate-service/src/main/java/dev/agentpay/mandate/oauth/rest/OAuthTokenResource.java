package dev.agentpay.mandate.oauth.rest;

import dev.agentpay.commons.auth.AuthConfig;
import dev.agentpay.commons.auth.Scopes;
import dev.agentpay.commons.error.ErrorMappers;
import dev.agentpay.commons.limits.ClientAddress;
import dev.agentpay.commons.limits.RateLimitConfig;
import dev.agentpay.commons.limits.RateLimiter;
import dev.agentpay.commons.limits.TokenBucket;
import dev.agentpay.mandate.oauth.rest.OAuthApi.TokenError;
import dev.agentpay.mandate.oauth.rest.OAuthApi.TokenForm;
import dev.agentpay.mandate.oauth.rest.OAuthApi.TokenResponse;
import dev.agentpay.mandate.oauth.service.OAuthClientService;
import dev.agentpay.mandate.oauth.service.OAuthIssuerConfig;
import dev.agentpay.mandate.oauth.service.TokenService;
import com.github.benmanes.caffeine.cache.Ticker;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.annotation.PostConstruct;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestHeader;

/**
 * {@code POST /oauth/token}: the OAuth 2.0 client credentials grant (RFC 6749 §4.4). The client authenticates
 * with HTTP Basic ({@code client_secret_basic}) or with {@code client_id} and {@code client_secret} in the form
 * ({@code client_secret_post}), never both. Answers are RFC 6749's (§5.1 and §5.2, with {@code success} added),
 * never cached. Rate limited per {@code client_id} and per client address before any secret is checked.
 * Nothing here logs a secret or a token.
 */
@Path("/oauth/token")
@Tag(name = "OAuth 2.0")
public class OAuthTokenResource {

    static final String GRANT = "client_credentials";

    @Inject
    OAuthClientService clients;

    @Inject
    TokenService tokens;

    @Inject
    OAuthIssuerConfig config;

    @Inject
    RateLimitConfig rateLimits;

    @Inject
    AuthConfig auth;

    private RateLimiter perClient;
    private RateLimiter perAddress;
    private ClientAddress addresses;

    @PostConstruct
    void init() {
        perClient = new RateLimiter(config.perClient(), rateLimits.maxBuckets(), Ticker.systemTicker());
        perAddress = new RateLimiter(config.perAddress(), rateLimits.maxBuckets(), Ticker.systemTicker());
        addresses = new ClientAddress(rateLimits.trustedProxies());
    }

    @POST
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.APPLICATION_JSON)
    @org.eclipse.microprofile.openapi.annotations.extensions.Extension(name = dev.agentpay.commons.rest.OpenApiContract.BARE, value = "true")
    @Operation(operationId = "issueAccessToken", summary = "Exchange OAuth client credentials for an access token",
            description = "RFC 6749 §4.4 client credentials grant. Authenticate with HTTP Basic (client_secret_basic) or "
                    + "client_id/client_secret in the form (client_secret_post). The token is a JWT (ES256, typ at+jwt) for "
                    + "`Authorization: Bearer`, valid at most 15 minutes, carrying the requested scopes (default: all of the "
                    + "client's). Rate limited per client_id and per address.")
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_FORM_URLENCODED,
            schema = @Schema(implementation = TokenForm.class)))
    @APIResponse(responseCode = "200", description = "the access token (RFC 6749 §5.1; `Cache-Control: no-store`)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = TokenResponse.class)))
    @APIResponse(responseCode = "400", description = "RFC 6749 §5.2: `invalid_request` (missing or repeated parameter, two "
            + "client authentications), `unsupported_grant_type`, `invalid_scope` (unknown, or not granted to the client), "
            + "`invalid_target` (a resource outside this API)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = TokenError.class)))
    @APIResponse(responseCode = "401", description = "RFC 6749 §5.2 `invalid_client`: unknown, revoked or wrong credentials "
            + "(`WWW-Authenticate: Basic`)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = TokenError.class)))
    @APIResponse(responseCode = "429", description = "Too many token requests for this client_id or from this address "
            + "(`rate_limited`; `Retry-After` says when to retry)")
    public Uni<Response> token(@RestHeader("Authorization") String authorization, MultivaluedMap<String, String> form,
            @Context HttpServerRequest request) {
        String remote = request.remoteAddress() == null ? null : request.remoteAddress().hostAddress();
        TokenBucket.Decision byAddress = perAddress.take("addr:" + addresses.resolve(remote, request.getHeader("X-Forwarded-For")));
        if (!byAddress.allowed()) {
            return done(limited(byAddress, "from this address"));
        }
        for (Map.Entry<String, List<String>> e : form.entrySet()) {
            if (e.getValue().size() > 1) {
                return done(error(400, "invalid_request", "parameter " + printable(e.getKey()) + " is repeated"));
            }
        }
        String clientId;
        String secret;
        boolean basic = authorization != null && !authorization.isBlank();
        if (basic) {
            if (form.containsKey("client_secret") || form.containsKey("client_id") && form.getFirst("client_secret") != null) {
                return done(error(400, "invalid_request", "use one client authentication: HTTP Basic or client_secret in the form"));
            }
            String[] pair = basic(authorization);
            if (pair == null) {
                return done(invalidClient(true, "Authorization must be Basic base64(client_id:client_secret)"));
            }
            if (form.getFirst("client_id") != null && !form.getFirst("client_id").equals(pair[0])) {
                return done(error(400, "invalid_request", "client_id in the form differs from the authenticated client"));
            }
            clientId = pair[0];
            secret = pair[1];
        } else {
            clientId = form.getFirst("client_id");
            secret = form.getFirst("client_secret");
            if (clientId == null || secret == null) {
                return done(invalidClient(false, "client authentication missing: HTTP Basic, or client_id and client_secret"));
            }
        }
        TokenBucket.Decision byClient = perClient.take("client:" + (clientId.length() > 80 ? clientId.substring(0, 80) : clientId));
        if (!byClient.allowed()) {
            return done(limited(byClient, "for this client"));
        }
        String grant = form.getFirst("grant_type");
        if (grant == null || grant.isBlank()) {
            return done(error(400, "invalid_request", "grant_type is missing"));
        }
        if (!GRANT.equals(grant)) {
            return done(error(400, "unsupported_grant_type", "only grant_type=client_credentials is supported"));
        }
        Set<String> requested;
        try {
            requested = form.getFirst("scope") == null ? null : Scopes.parse(form.getFirst("scope"));
        } catch (IllegalArgumentException e) {
            return done(error(400, "invalid_scope", e.getMessage()));
        }
        if (requested != null && requested.isEmpty()) {
            return done(error(400, "invalid_scope", "scope is empty"));
        }
        String resource = form.getFirst("resource");
        String audience = auth.oauth().audience().replaceAll("/+$", "");
        if (resource != null && !(resource.replaceAll("/+$", "").equals(audience) || resource.startsWith(audience + "/"))) {
            return done(error(400, "invalid_target", "resource must be this API (" + audience + ") or a URL under it"));
        }
        return clients.authenticate(clientId, secret).flatMap(client -> {
            if (client == null) {
                return done(invalidClient(basic, "unknown client, revoked client or wrong secret"));
            }
            Set<String> granted = requested == null ? Scopes.ordered(client.scopes()) : requested;
            if (!client.scopes().containsAll(granted)) {
                return done(error(400, "invalid_scope", "scope exceeds what this client may be granted ("
                        + Scopes.format(client.scopes()) + ")"));
            }
            return tokens.issue(client.partnerId(), client.clientId(), granted)
                    .map(t -> Response.ok(TokenResponse.of(t), MediaType.APPLICATION_JSON_TYPE).header("Cache-Control", "no-store")
                            .header("Pragma", "no-cache").build());
        });
    }

    /** RFC 6749 §2.3.1: base64 of form-urlencoded client_id, a colon, form-urlencoded client_secret. */
    static String[] basic(String authorization) {
        String a = authorization.trim();
        if (a.length() < 7 || !a.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        try {
            String decoded = new String(Base64.getDecoder().decode(a.substring(6).trim()), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            if (colon <= 0) {
                return null;
            }
            return new String[] {URLDecoder.decode(decoded.substring(0, colon), StandardCharsets.UTF_8),
                    URLDecoder.decode(decoded.substring(colon + 1), StandardCharsets.UTF_8)};
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static Response error(int status, String code, String description) {
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).header("Cache-Control", "no-store")
                .header("Pragma", "no-cache").entity(new TokenError(false, code, description)).build();
    }

    private static Response invalidClient(boolean basic, String description) {
        return Response.fromResponse(error(401, "invalid_client", description))
                .header("WWW-Authenticate", "Basic realm=\"agentpay\"").build();
    }

    private static Response limited(TokenBucket.Decision d, String what) {
        return Response.fromResponse(ErrorMappers.response(429, "rate_limited", "too many token requests " + what
                + "; retry after " + d.retryAfterSeconds() + " s")).header("Retry-After", Long.toString(d.retryAfterSeconds())).build();
    }

    private static Uni<Response> done(Response r) {
        return Uni.createFrom().item(r);
    }

    private static String printable(String s) {
        String cut = s.length() > 40 ? s.substring(0, 40) : s;
        StringBuilder b = new StringBuilder();
        cut.chars().forEach(c -> b.append(c >= 0x20 && c < 0x7f ? (char) c : '?'));
        return b.toString();
    }
}
