package dev.agentpay.commons.auth;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
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
}
