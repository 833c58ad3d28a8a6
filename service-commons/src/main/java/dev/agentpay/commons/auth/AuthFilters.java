package dev.agentpay.commons.auth;

import dev.agentpay.commons.error.ErrorMappers;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Authenticates requests to resources marked {@link PartnerAuthenticated} ({@code x-api-key}) or
 * {@link AdminOnly} ({@code x-admin-key}); a missing or invalid credential is a 401 envelope.
 */
public class AuthFilters {

    public static final String API_KEY_HEADER = "x-api-key";
    public static final String ADMIN_KEY_HEADER = "x-admin-key";

    @Inject
    PartnerRegistry registry;

    @Inject
    CurrentPartner current;

    @Inject
    AuthConfig config;

    @ServerRequestFilter
    @PartnerAuthenticated
    public Response partner(ContainerRequestContext ctx) {
        String key = ctx.getHeaderString(API_KEY_HEADER);
        if (key == null || key.isBlank()) {
            return ErrorMappers.response(401, "unauthorized", "missing x-api-key header");
        }
        // Not Optional.map(...): a mapper returning null (continue the request) would yield empty, a 401.
        java.util.Optional<Partner> partner = registry.authenticate(key.trim());
        if (partner.isEmpty() && !registry.caughtUp()) {
            // Just started: the key may be in a registry record not read yet; ask the caller to retry.
            return Response.fromResponse(ErrorMappers.response(503, "registry_not_ready",
                    "this instance is still loading the partner registry; retry shortly")).header("Retry-After", "1").build();
        }
        if (partner.isEmpty()) {
            return ErrorMappers.response(401, "unauthorized", "invalid or revoked API key");
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
}
