package dev.agentpay.discovery.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of discovery-service. */
@ConfigMapping(prefix = "discovery")
public interface DiscoveryConfig {

    /** Label of this service in logs and documents. */
    @WithDefault("discovery-service")
    String serviceName();
}
