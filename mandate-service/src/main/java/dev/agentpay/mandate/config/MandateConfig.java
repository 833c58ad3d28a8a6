package dev.agentpay.mandate.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of mandate-service. */
@ConfigMapping(prefix = "mandate")
public interface MandateConfig {

    /** Label of this service in logs and documents. */
    @WithDefault("mandate-service")
    String serviceName();
}
