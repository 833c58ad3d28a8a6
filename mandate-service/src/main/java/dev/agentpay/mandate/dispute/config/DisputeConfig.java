package dev.agentpay.mandate.dispute.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Settings of disputes (mandate-service README, "Disputes"). */
@ConfigMapping(prefix = "dispute")
public interface DisputeConfig {

    /** How long a dispute stays open for evidence and the arbiter; after it, an unresolved dispute refunds the funder. */
    @WithDefault("P14D")
    Duration deadline();

    /** How often the deadline job looks for disputes past their deadline (a Quarkus scheduler period). */
    @WithDefault("5s")
    String deadlineCheckInterval();

    /** Disputes resolved by the deadline job per transaction. */
    @WithDefault("50")
    int batchSize();

    /** Pieces of evidence one party may submit in one dispute. */
    @WithDefault("50")
    int maxEvidencePerParty();
}
