package dev.agentpay.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.localstack.Ports;
import java.nio.file.Files;
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
        List<Long> children = SharedStack.stop();
        assertThat(children).as("the launcher's processes").isNotEmpty();
        long deadline = System.nanoTime() + 30_000_000_000L;
        List<Long> alive = children;
        while (System.nanoTime() < deadline) {
            alive = children.stream().filter(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).toList();
            if (alive.isEmpty()) {
                break;
            }
            Thread.sleep(250);
        }
        assertThat(alive).as("processes still running after stop").isEmpty();
        assertThat(Ports.isFree(stack.gatewayPort)).as("gateway port released").isTrue();
        assertThat(Files.exists(stack.stateDir.resolve("launcher.pid"))).isFalse();
        assertThat(env.get("BASE_URL")).endsWith(":" + stack.gatewayPort);
    }
}
