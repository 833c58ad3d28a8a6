package dev.agentpay.anchor.anchoring.service;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.Startup;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.time.Instant;

/**
 * The anchoring meters, in one place (names in the README), registered at start; the {@code anchor.stalled}
 * gauge is the pipeline's. A singleton (no client proxy): its counters are read as fields.
 */
@Startup
@Singleton
public class AnchorMetrics {

    final Counter txSent;
    final Counter anchored;
    final Counter gapsDetected;
    final Counter refilledAgain;
    final Counter refilledNoop;
    private final Timer commitToReceipt;

    // A constructor, not @PostConstruct: the meters are the bean's whole state, final fields other beans read.
    @Inject
    public AnchorMetrics(MeterRegistry registry) {
        txSent = registry.counter("anchor.transactions.signed");
        anchored = registry.counter("anchor.transitions.anchored");
        gapsDetected = registry.counter("anchor.nonce.gaps");
        refilledAgain = registry.counter("anchor.nonce.refilled", "kind", "confirmed-tx-again");
        refilledNoop = registry.counter("anchor.nonce.refilled", "kind", "noop");
        commitToReceipt = Timer.builder("anchor.commit.to.receipt")
                .description("time from the transition's event to its recorded anchor receipt")
                .publishPercentiles(0.5, 0.99).register(registry);
    }

    void receiptRecorded(Instant eventAt, Instant now) {
        commitToReceipt.record(Duration.between(eventAt, now));
    }
}
