package dev.agentpay.settlement.escrow.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.junit.jupiter.api.Test;

/** Failing escrow command rounds become visible in readiness after the stall period, and a success clears them. */
class EscrowStallsTest {

    private static final Instant T0 = Instant.parse("2026-11-27T04:00:00Z");
    private static final Duration AFTER = Duration.ofSeconds(30);

    @Test
    void aChainFailingLongerThanThePeriodIsStalledWithItsFirstFailureAndLatestReason() {
        EscrowStalls s = new EscrowStalls();
        s.failed("base", "connection refused", T0);
        assertThat(s.stalled(T0.plusSeconds(29), AFTER)).as("not yet").isEmpty();
        s.failed("base", "timeout", T0.plusSeconds(20));
        Map<String, String> stalled = s.stalled(T0.plusSeconds(30), AFTER);
        assertThat(stalled).containsOnlyKeys("base");
        assertThat(stalled.get("base")).contains(T0.toString()).endsWith(": timeout");
    }

    @Test
    void aRoundThatCompletesClearsItsChainOnly() {
        EscrowStalls s = new EscrowStalls();
        s.failed("base", "connection refused", T0);
        s.failed("polygon", "connection refused", T0);
        s.succeeded("base");
        assertThat(s.stalled(T0.plusSeconds(60), AFTER)).containsOnlyKeys("polygon");
        s.failed("base", "again", T0.plusSeconds(50));
        assertThat(s.stalled(T0.plusSeconds(60), AFTER)).as("a new run of failures counts from its own start").containsOnlyKeys("polygon");
    }

    @Test
    void readinessIsDownNamingTheStalledChainsAndUpWithoutThem() {
        assertThat(EscrowReadiness.of(Map.of()).getStatus()).isEqualTo(HealthCheckResponse.Status.UP);
        HealthCheckResponse down = EscrowReadiness.of(Map.of("base", "escrow commands waiting: rounds failing since x: refused"));
        assertThat(down.getStatus()).isEqualTo(HealthCheckResponse.Status.DOWN);
        assertThat(down.getName()).isEqualTo("escrow-commands");
        assertThat(down.getData()).hasValueSatisfying(d -> assertThat(d).containsEntry("base",
                "escrow commands waiting: rounds failing since x: refused"));
    }
}
