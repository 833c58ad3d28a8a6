package dev.agentpay.invoice.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Settings of invoice-service. */
@ConfigMapping(prefix = "invoice")
public interface InvoiceConfig {

    /** Label of this service in logs and documents. */
    @WithDefault("invoice-service")
    String serviceName();
}
