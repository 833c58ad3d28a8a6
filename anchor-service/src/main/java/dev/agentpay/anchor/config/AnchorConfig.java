package dev.agentpay.anchor.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of anchor-service. */
@ConfigMapping(prefix = "anchor")
public interface AnchorConfig {

    /** Label of this service in logs and documents. */
    @WithDefault("anchor-service")
    String serviceName();
}
