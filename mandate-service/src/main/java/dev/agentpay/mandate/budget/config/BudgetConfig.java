package dev.agentpay.mandate.budget.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Settings of budgets and charges (mandate-service README, "Budgets and charges"). */
@ConfigMapping(prefix = "budget")
public interface BudgetConfig {

    /** invoice-service as this service reaches it ({@code INVOICE_SERVICE_URL}): where a charge's invoice is created. */
    @WithDefault("${INVOICE_SERVICE_URL:http://127.0.0.1:8082}")
    String invoiceServiceUrl();

    /** How long a charge waits for invoice-service before answering 503 {@code charge_pending}. */
    @WithDefault("PT10S")
    Duration invoiceTimeout();

    /** Shortest budget period. */
    @WithDefault("PT1H")
    Duration minPeriod();

    /** Longest budget period. */
    @WithDefault("P3650D")
    Duration maxPeriod();

    /** The loop that finishes charges whose invoice creation did not finish (a crash, invoice-service away). */
    Recovery recovery();

    interface Recovery {

        /** How often it runs (a Quarkus scheduler period). */
        @WithDefault("5s")
        String interval();

        /** A {@code reserving} charge younger than this is left to the request still creating its invoice. */
        @WithDefault("PT30S")
        Duration grace();

        /** Charges per round. */
        @WithDefault("50")
        int batchSize();
    }
}
