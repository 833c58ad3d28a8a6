package dev.agentpay.commons.limits;

import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Who a service calls another service on behalf of (issue 33 item 4): a service that calls our own services
 * for a public caller (discovery-service's MCP tools) sends the caller's address in {@code X-Forwarded-For},
 * so the called service limits that caller by address exactly as when the caller comes through the gateway
 * (one allowance for MCP and REST). The called services believe the header only from their trusted proxies
 * ({@code platform.rate-limit.trusted-proxies}: the platform's own network), never from outside. A call
 * without a public caller (trusted peer, no {@code X-Forwarded-For}: the operator, another service) stays
 * internal: nothing is forwarded.
 */
@ApplicationScoped
public class ForwardedClient {

    public static final String HEADER = "X-Forwarded-For";

    @Inject
    RateLimitConfig config;

    private volatile ClientAddress addresses;

    /** The {@code X-Forwarded-For} value to send on calls made for {@code req}, or null when {@code req} is internal. */
    public String of(HttpServerRequest req) {
        String remote = req.remoteAddress() == null ? null : req.remoteAddress().hostAddress();
        return of(remote, req.getHeader(HEADER));
    }

    /** As {@link #of(HttpServerRequest)}, from the connection's peer and the request's own header. */
    public String of(String remote, String forwardedFor) {
        ClientAddress a = addresses;
        if (a == null) {
            a = new ClientAddress(config.trustedProxies());
            addresses = a;
        }
        return a.isInternal(remote, forwardedFor) ? null : a.resolve(remote, forwardedFor);
    }
}
