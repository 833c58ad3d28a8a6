package dev.agentpay.invoice.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.math.BigDecimal;
import java.time.Duration;

/** Settings of invoice-service (the chain table itself is {@code dev.agentpay.commons.chains.ChainsConfig}). */
@ConfigMapping(prefix = "invoice")
public interface InvoiceConfig {

    /** Label of this service in logs and documents. */
    @WithDefault("invoice-service")
    String serviceName();

    /** Largest invoice amount accepted, in USDC. */
    @WithDefault("1000000000")
    BigDecimal maxAmount();

    /** Matching of transfers to invoices. */
    Matching matching();

    /** Paging of {@code GET /v1/invoices}. */
    Paging paging();

    /** Matching of EVM transfers by unique payable amount. */
    interface Matching {

        /**
         * How many atomic-unit suffixes (0 .. n-1 millionths of a USDC) an amount may get to make the
         * payable amount unique among the chain's open invoices; 10000 keeps the surcharge under one cent.
         */
        @WithDefault("10000")
        int suffixRange();

        /**
         * How long a settled invoice keeps its payable amount before another invoice may take it: longer
         * than any reorg, so a retracted payment that is mined again still finds its invoice, and a
         * duplicate payment shows up as unmatched instead of paying a newer invoice.
         */
        @WithDefault("PT24H")
        Duration amountHold();
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
