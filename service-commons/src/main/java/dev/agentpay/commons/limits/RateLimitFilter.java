package dev.agentpay.commons.limits;

import dev.agentpay.commons.error.ErrorBody;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.agentpay.commons.auth.AuthFilters;
import dev.agentpay.commons.auth.Partner;
import dev.agentpay.commons.auth.PartnerRegistry;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.RoutingContext;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * Limits every request before it reaches a resource: one token bucket per partner for requests
 * carrying a valid {@code x-api-key}, one per client address for all others (public views,
 * discovery, MCP, and authenticated endpoints called without a valid key, so key guessing is limited
 * too). Calls from a trusted proxy address without {@code X-Forwarded-For} are internal (our own
 * services calling each other, the operator) and not limited by address. A Vert.x route filter rather than a JAX-RS one because the MCP endpoint is not JAX-RS.
 * Answers {@code 429 rate_limited} with {@code Retry-After}; every limited answer carries the IETF
 * {@code RateLimit-Limit}, {@code RateLimit-Remaining} and {@code RateLimit-Reset} headers.
 */
@ApplicationScoped
public class RateLimitFilter {

    /** Runs before Quarkus' own body-size check (order -priority) and every route. */
    static final int PRIORITY = 300;

    @Inject
    RateLimitConfig config;

    @Inject
    PartnerRegistry registry;

    @Inject
    MeterRegistry meters;

    private RateLimiter perKey;
    private RateLimiter perAddress;
    private ClientAddress clientAddress;
    private Counter rejectedKey;
    private Counter rejectedAddress;

    @PostConstruct
    void init() {
        perKey = new RateLimiter(config.perKey(), config.maxBuckets(), Ticker.systemTicker());
        perAddress = new RateLimiter(config.perAddress(), config.maxBuckets(), Ticker.systemTicker());
        clientAddress = new ClientAddress(config.trustedProxies());
        rejectedKey = Counter.builder("agentpay.rate_limit.rejected").tag("scope", "key")
                .description("requests refused with 429").register(meters);
        rejectedAddress = Counter.builder("agentpay.rate_limit.rejected").tag("scope", "address")
                .description("requests refused with 429").register(meters);
        Gauge.builder("agentpay.rate_limit.buckets", perKey, RateLimiter::size).tag("scope", "key").register(meters);
        Gauge.builder("agentpay.rate_limit.buckets", perAddress, RateLimiter::size).tag("scope", "address").register(meters);
    }

    void register(@Observes Filters filters) {
        if (config.enabled()) {
            filters.register(this::handle, PRIORITY);
        }
    }

    void handle(RoutingContext rc) {
        HttpServerRequest req = rc.request();
        String path = rc.normalizedPath();
        if (path == null || excluded(path)) {
            rc.next();
            return;
        }
        boolean byKey;
        TokenBucket.Decision d;
        Optional<Partner> partner = partnerOf(req.getHeader(AuthFilters.API_KEY_HEADER));
        if (partner.isPresent()) {
            byKey = true;
            d = perKey.take(partner.get().id());
        } else {
            byKey = false;
            String remote = req.remoteAddress() == null ? null : req.remoteAddress().hostAddress();
            String forwarded = req.getHeader("X-Forwarded-For");
            if (clientAddress.isInternal(remote, forwarded)) {
                // Service-to-service calls (e.g. MCP tools calling their owners) are limited at the caller's edge.
                rc.next();
                return;
            }
            d = perAddress.take(clientAddress.resolve(remote, forwarded));
        }
        HttpServerResponse res = rc.response();
        res.putHeader("RateLimit-Limit", Integer.toString(d.limit()));
        res.putHeader("RateLimit-Remaining", Integer.toString(d.remaining()));
        res.putHeader("RateLimit-Reset", Long.toString(d.resetSeconds()));
        if (d.allowed()) {
            rc.next();
            return;
        }
        (byKey ? rejectedKey : rejectedAddress).increment();
        res.setStatusCode(429)
                .putHeader("Retry-After", Long.toString(d.retryAfterSeconds()))
                .putHeader("Content-Type", "application/json")
                .end(ErrorBody.json("rate_limited", "too many requests " + (byKey ? "for this API key" : "from this address")
                        + "; retry after " + d.retryAfterSeconds() + " s"));
    }

    private Optional<Partner> partnerOf(String key) {
        return key == null || key.isBlank() ? Optional.empty() : registry.authenticate(key.trim());
    }

    private boolean excluded(String path) {
        for (String prefix : config.excludedPaths()) {
            if (path.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }
}
