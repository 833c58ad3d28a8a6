package dev.agentpay.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The watchdog's judgement: only a group whose coordinator stays silent for the whole period is stuck. */
class KafkaGroupWatchdogTest {

    @Test
    void aGroupIsStuckOnlyAfterThePeriodWithoutAnAnswer() {
        KafkaGroupWatchdog.StuckGroups g = new KafkaGroupWatchdog.StuckGroups(Duration.ofSeconds(90));
        Instant t0 = Instant.parse("2026-11-25T12:00:00Z");
        g.unanswered("anchor-service", t0);
        g.unanswered("invoice-service", t0.plusSeconds(30));
        assertThat(g.stuck(t0.plusSeconds(60))).isEmpty();
        g.unanswered("anchor-service", t0.plusSeconds(75)); // still silent: the first silence counts
        assertThat(g.stuck(t0.plusSeconds(91))).contains("anchor-service");
        g.answered("anchor-service");
        assertThat(g.stuck(t0.plusSeconds(100))).isEmpty();
        assertThat(g.stuck(t0.plusSeconds(121))).contains("invoice-service");
        g.clear();
        assertThat(g.stuck(t0.plusSeconds(500))).isEmpty();
    }
}
