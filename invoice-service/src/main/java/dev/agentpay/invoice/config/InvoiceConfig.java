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

    /** Invoice deadlines (README "Expiry"). */
    Expiry expiry();

    /** When invoices expire and how often the sweep runs. */
    interface Expiry {

        /** Lifetime of an invoice created without {@code expiresAt} (x402-bought invoices too). */
        @WithDefault("PT24H")
        java.time.Duration defaultTtl();

        /** Shortest lifetime a request may ask for ({@code expiresAt} at least this far ahead). */
        @WithDefault("PT60S")
        java.time.Duration minTtl();

        /** Longest lifetime a request may ask for. */
        @WithDefault("P30D")
        java.time.Duration maxTtl();

        /** Period of the sweep that moves PENDING invoices past their deadline to EXPIRED (at least 1 s: the scheduler's floor). */
        @WithDefault("PT5S")
        java.time.Duration interval();

        /** Invoices expired per transaction of the sweep. */
        @WithDefault("200")
        int batchSize();
    }

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
