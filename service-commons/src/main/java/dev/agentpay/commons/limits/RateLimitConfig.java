package dev.agentpay.commons.limits;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.List;

/**
 * Request rate limits of every service (token buckets held by each instance). Defaults are the
 * production values and the local stack keeps them; {@code %test} profiles turn the limiter off so
 * that service tests may send bursts.
 */
@ConfigMapping(prefix = "platform.rate-limit")
public interface RateLimitConfig {

    /** Whether requests are limited at all ({@code PLATFORM_RATE_LIMIT_ENABLED=false} turns it off, e.g. for load tests). */
    @WithDefault("true")
    boolean enabled();

    /** The bucket of each partner (every request carrying a valid {@code x-api-key}). */
    Bucket perKey();

    /** The bucket of each client address (every request without a valid API key). */
    Bucket perAddress();

    /**
     * Addresses or CIDR blocks of the platform's own network: proxies whose {@code X-Forwarded-For}
     * is believed (IP literals only) and services calling each other. The client address is the
     * right-most address in that header not in this list; a request from here without the header is
     * internal and not limited by address; a request from anywhere else is keyed by its remote
     * address and its header ignored. Production: the Ingress controller's and the pods' networks.
     */
    @WithDefault("127.0.0.0/8,::1/128")
    List<String> trustedProxies();

    /** Path prefixes never limited (health, metrics, OpenAPI). */
    @WithDefault("/q/")
    List<String> excludedPaths();

    /**
     * Most buckets held at once per scope; beyond it the least recently used are dropped. Idle
     * buckets are dropped anyway once they would have refilled (burst / rate seconds).
     */
    @WithDefault("100000")
    long maxBuckets();

    /** One token bucket's settings. */
    interface Bucket {

        /** Sustained requests per second (tokens added per second). */
        double rate();

        /** Largest burst (bucket capacity); also the {@code RateLimit-Limit} header. */
        int burst();
    }
}
