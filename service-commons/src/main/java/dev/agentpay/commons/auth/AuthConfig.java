package dev.agentpay.commons.auth;

import io.smallrye.config.ConfigMapping;
import java.util.Optional;

/** Credentials every service checks. */
@ConfigMapping(prefix = "platform.auth")
public interface AuthConfig {

    /**
     * The operator's admin key ({@code x-admin-key}); admin endpoints refuse every call when it is
     * unset. Supplied from a secret ({@code ADMIN_API_KEY}), never logged.
     */
    Optional<String> adminKey();
}
