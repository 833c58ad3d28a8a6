package dev.agentpay.invoice.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.math.BigDecimal;

/** Settings of invoice-service (the chain table itself is {@code dev.agentpay.commons.chains.ChainsConfig}). */
@ConfigMapping(prefix = "invoice")
public interface InvoiceConfig {

    /** Label of this service in logs and documents. */
    @WithDefault("invoice-service")
    String serviceName();

    /** Largest invoice amount accepted, in USDC. */
    @WithDefault("1000000000")
    BigDecimal maxAmount();

    /** Paging of {@code GET /v1/invoices}. */
    Paging paging();

    /** List paging. */
    interface Paging {

        /** Page size when {@code limit} is absent. */
        @WithDefault("20")
        int defaultLimit();

        /** Largest {@code limit} accepted. */
        @WithDefault("100")
        int maxLimit();
    }
}
