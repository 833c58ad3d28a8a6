package dev.agentpay.mandate.oauth.service;

import dev.agentpay.commons.limits.RateLimitConfig;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * The token issuer's settings (mandate-service README, "OAuth 2.0"). Issuer and audience are the platform's
 * ({@code platform.auth.oauth.issuer}, {@code .audience}), shared with every verifier.
 */
@ConfigMapping(prefix = "oauth-issuer")
public interface OAuthIssuerConfig {

    /** Lifetime of an access token ({@code exp - iat}); at most 15 minutes (checked at start-up). */
    @WithDefault("10m")
    Duration tokenLifetime();

    /** A signing key older than this is replaced (checked hourly); {@code POST /admin/oauth/signing-keys/rotate} at will. */
    @WithDefault("30d")
    Duration keyRotationPeriod();

    /** Token requests per OAuth client ({@code client_id} as sent, known or not). */
    RateLimitConfig.Bucket perClient();

    /** Token requests per client address (the platform's address rule: {@code platform.rate-limit.trusted-proxies}). */
    RateLimitConfig.Bucket perAddress();
}
