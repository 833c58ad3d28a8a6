package dev.agentpay.webhook.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of webhook-dispatcher. */
@ConfigMapping(prefix = "webhook")
public interface WebhookConfig {

    /** Label of this service in logs and documents. */
    @WithDefault("webhook-dispatcher")
    String serviceName();
}
