package dev.agentpay.commons.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Optional;

/** Credentials every service checks. */
@ConfigMapping(prefix = "platform.auth")
public interface AuthConfig {

    /**
     * The operator's admin key ({@code x-admin-key}); admin endpoints refuse every call when it is
     * unset. Supplied from a secret ({@code ADMIN_API_KEY}), never logged.
     */
    Optional<String> adminKey();

    /**
     * Whether an unknown API key waits for the partner registry to have read the {@code partners}
     * topic up to its end at start-up (503 {@code registry_not_ready} with {@code Retry-After} and
     * readiness down until then) instead of being refused at once with 401. Service tests that add
     * partners to the registry directly turn it off.
     */
    @WithDefault("true")
    boolean awaitRegistry();

    /** OAuth 2.0 bearer access tokens (service-commons README, "OAuth"). */
    OAuth oauth();

    interface OAuth {

        /**
         * The issuer every access token must name ({@code iss}): the public base URL of the API, where
         * {@code /oauth/token} and {@code /.well-known/oauth-authorization-server} are served.
         */
        String issuer();

        /** The audience every access token must name ({@code aud}): the API as a protected resource. */
        String audience();

        /**
         * Where this service reads the issuer's signing keys (a JWK set); mandate-service, the issuer, reads
         * its own keys in-process instead. Unset: bearer tokens are refused ({@code invalid_token}).
         */
        Optional<String> jwksUrl();

        /** How long a fetched key set is used before it is fetched again (an unknown {@code kid} fetches at once). */
        @WithDefault("5m")
        Duration jwksMaxAge();

        /** Least time between two fetches caused by unknown {@code kid}s (a flood of forged kids costs one fetch). */
        @WithDefault("10s")
        Duration jwksMinRefetch();

        /** Clock skew allowed on {@code exp}, {@code iat} and {@code nbf}. */
        @WithDefault("30s")
        Duration clockSkew();
    }
}
