package dev.agentpay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.localstack.Ports;
import java.nio.file.Files;
import java.time.Duration;
import org.awaitility.Awaitility;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/** Runs last ({@link ClassOrderer.OrderAnnotation}): Ctrl-C stops every process the launcher started. */
@Order(Integer.MAX_VALUE)
class StackStopIT {

    @Test
    void stopLeavesNothingRunning() throws Exception {
        Map<String, String> env = SharedStack.env();
        LocalStackProcess stack = SharedStack.process();
        // After the whole suite, before the stop: no key or secret the stack knows or any IT sent, and no
        // forged line, in any process's log (SecurityIT's and FuzzIT's evidence, LogEvidence)
        for (String k : List.of("API_KEY", "API_KEY_2", "SIGNING_SECRET", "SIGNING_SECRET_2", "ADMIN_API_KEY")) {
            LogEvidence.secret(k, env.get(k));
        }
        List<String> findings = LogEvidence.findings(stack.stateDir.resolve("logs"), Map.of(
                "DEV_PAYER_PRIVATE_KEY", env.get("DEV_PAYER_PRIVATE_KEY"), "anchor signer key", dev.agentpay.localstack.AnvilNode.DEV_KEY_0,
                "base anchor signer key", SecurityIT.BASE_ANCHOR_SIGNER_KEY));
        assertThat(findings).as("secrets or forged lines in the logs after the whole suite (%d secrets searched)",
                LogEvidence.secrets().size()).isEmpty();
        List<Long> children = SharedStack.stop();
        assertThat(children).as("the launcher's processes").isNotEmpty();
        Awaitility.await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
                assertThat(children.stream().filter(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).toList())
                        .as("processes still running after stop").isEmpty());
        assertThat(Ports.isFree(stack.gatewayPort)).as("gateway port released").isTrue();
        assertThat(Files.exists(stack.stateDir.resolve("launcher.pid"))).isFalse();
        assertThat(env.get("BASE_URL")).endsWith(":" + stack.gatewayPort);
    }
}
