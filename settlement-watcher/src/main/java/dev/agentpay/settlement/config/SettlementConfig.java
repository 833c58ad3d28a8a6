package dev.agentpay.settlement.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of settlement-watcher. */
@ConfigMapping(prefix = "settlement")
public interface SettlementConfig {

    /** Label of this service in logs and documents. */
    @WithDefault("settlement-watcher")
    String serviceName();
}
