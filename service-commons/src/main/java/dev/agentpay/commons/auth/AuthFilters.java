package dev.agentpay.commons.auth;

import dev.agentpay.commons.auth.oauth.AccessToken;
import dev.agentpay.commons.auth.oauth.BearerVerifier;
import dev.agentpay.commons.auth.oauth.InvalidTokenException;
import dev.agentpay.commons.auth.oauth.KeysUnavailableException;
import dev.agentpay.commons.error.ErrorMappers;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Response;
import java.lang.annotation.Annotation;
import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Authenticates requests to resources marked {@link PartnerAuthenticated} ({@code x-api-key}, or
 * {@code Authorization: Bearer <access token>} issued by {@code /oauth/token}) or {@link AdminOnly}
 * ({@code x-admin-key}); a missing or invalid credential is a 401 envelope. An endpoint that declares a scope
 * ({@link Scopes}) answers 403 {@code insufficient_scope} to a credential without it: a token whose scopes
 * (as still allowed to its client) lack it, or an API key restricted to other scopes.
 */
public class AuthFilters {

    public static final String API_KEY_HEADER = "x-api-key";
    public static final String ADMIN_KEY_HEADER = "x-admin-key";
    public static final String AUTHORIZATION = "Authorization";
    static final String BEARER = "bearer ";

    @Inject
    PartnerRegistry registry;

    @Inject
    CurrentPartner current;

    @Inject
    AuthConfig config;

    @Inject
    BearerVerifier bearer;

    /** The scope each resource method needs ({@code ""}: none), found once per method. */
    private static final Map<Method, String> SCOPES = new ConcurrentHashMap<>();

    @ServerRequestFilter
    @PartnerAuthenticated
    public Uni<Response> partner(ContainerRequestContext ctx, ResourceInfo resource) {
        String required = requiredScope(resource);
        String key = ctx.getHeaderString(API_KEY_HEADER);
        String authorization = ctx.getHeaderString(AUTHORIZATION);
        boolean hasKey = key != null && !key.isBlank();
        boolean hasAuthorization = authorization != null && !authorization.isBlank();
        if (hasKey && hasAuthorization) {
            return done(ErrorMappers.response(400, "invalid_request",
                    "send one credential: x-api-key or Authorization: Bearer, not both"));
        }
        if (hasAuthorization) {
            return bearer(authorization.trim(), required);
        }
        if (!hasKey) {
            return done(challenge(ErrorMappers.response(401, "unauthorized",
                    "missing x-api-key header (or Authorization: Bearer access token)"), null, null));
        }
        // Not Optional.map(...): a mapper returning null (continue the request) would yield empty, a 401.
        Optional<Partner> partner = registry.authenticate(key.trim());
        if (partner.isEmpty() && !registry.caughtUp()) {
            return done(notReady());
        }
        if (partner.isEmpty()) {
            return done(ErrorMappers.response(401, "unauthorized", "invalid or revoked API key"));
        }
        if (!required.isEmpty() && !registry.keyScopes(partner.get().id()).contains(required)) {
            return done(ErrorMappers.response(403, "insufficient_scope",
                    "this API key is restricted to scopes without " + required));
        }
        current.set(partner.get());
        return done(null);
    }

    private Uni<Response> bearer(String authorization, String required) {
        if (authorization.length() <= BEARER.length()
                || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return done(challenge(ErrorMappers.response(401, "invalid_token",
                    "Authorization must be \"Bearer <access token>\""), "invalid_token", null));
        }
        String token = authorization.substring(BEARER.length()).trim();
        return bearer.verify(token).map(t -> admit(t, required))
                .onFailure(InvalidTokenException.class).recoverWithItem(e -> challenge(
                        ErrorMappers.response(401, "invalid_token", e.getMessage()), "invalid_token", null))
                .onFailure(KeysUnavailableException.class).recoverWithItem(e -> Response.fromResponse(
                        ErrorMappers.response(503, "keys_unavailable", e.getMessage())).header("Retry-After", "5").build());
    }

    private Response admit(AccessToken token, String required) {
        Optional<Partner> partner = registry.active(token.partnerId());
        Optional<Set<String>> allowed = partner.flatMap(p -> registry.clientScopes(p.id(), token.clientId()));
        if (allowed.isEmpty() && !registry.caughtUp()) {
            return notReady();
        }
        if (partner.isEmpty()) {
            return challenge(ErrorMappers.response(401, "invalid_token", "token's partner is unknown or revoked"), "invalid_token", null);
        }
        if (allowed.isEmpty()) {
            return challenge(ErrorMappers.response(401, "invalid_token", "token's client is unknown or revoked"), "invalid_token", null);
        }
        if (!required.isEmpty() && !(token.scopes().contains(required) && allowed.get().contains(required))) {
            return challenge(ErrorMappers.response(403, "insufficient_scope", "this operation needs scope " + required),
                    "insufficient_scope", required);
        }
        current.set(partner.get());
        return null;
    }

    @ServerRequestFilter
    @AdminOnly
    public Response admin(ContainerRequestContext ctx) {
        String key = ctx.getHeaderString(ADMIN_KEY_HEADER);
        String expected = config.adminKey().orElse(null);
        if (key == null || expected == null || expected.isBlank()
                || !ApiKeys.constantTimeEquals(ApiKeys.hash(key), ApiKeys.hash(expected))) {
            return ErrorMappers.response(401, "unauthorized", "missing or invalid x-admin-key header");
        }
        return null;
    }

    /** RFC 6750 §3: the challenge on a 401 or 403 answered to a bearer-capable endpoint. */
    static Response challenge(Response r, String error, String scope) {
        StringBuilder h = new StringBuilder("Bearer realm=\"agentpay\"");
        if (error != null) {
            h.append(", error=\"").append(error).append('"');
        }
        if (scope != null) {
            h.append(", scope=\"").append(scope).append('"');
        }
        return Response.fromResponse(r).header("WWW-Authenticate", h.toString()).build();
    }

    private static Response notReady() {
        // Just started: the credential may be in a registry record not read yet; ask the caller to retry.
        return Response.fromResponse(ErrorMappers.response(503, "registry_not_ready",
                "this instance is still loading the partner registry; retry shortly")).header("Retry-After", "1").build();
    }

    private static Uni<Response> done(Response r) {
        return Uni.createFrom().item(r);
    }

    /** The scope the resource method (or its class) declares with a {@link Scopes.RequiresScope}-carrying annotation. */
    static String requiredScope(ResourceInfo resource) {
        Method m = resource == null ? null : resource.getResourceMethod();
        if (m == null) {
            return "";
        }
        return SCOPES.computeIfAbsent(m, method -> {
            String s = declared(method);
            return s != null ? s : Optional.ofNullable(declared(resource.getResourceClass())).orElse("");
        });
    }

    private static String declared(AnnotatedElement e) {
        if (e == null) {
            return null;
        }
        Scopes.RequiresScope direct = e.getAnnotation(Scopes.RequiresScope.class);
        if (direct != null) {
            return direct.value();
        }
        for (Annotation a : e.getAnnotations()) {
            Scopes.RequiresScope meta = a.annotationType().getAnnotation(Scopes.RequiresScope.class);
            if (meta != null) {
                return meta.value();
            }
        }
        return null;
    }
}
