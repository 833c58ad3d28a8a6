package dev.agentpay.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launcher's supervision: a killed process comes back with a new pid in its pid file; a halted supervisor restarts nothing. */
class SupervisorTest {

    private static ManagedProcess sleeper(Path dir) {
        return ManagedProcess.start("sleeper", List.of("sleep", "300"), Map.of(), dir, dir.resolve("sleeper.log"));
    }

    private static long pidIn(Path file) throws Exception {
        return Long.parseLong(Files.readString(file).trim());
    }

    @Test
    void restartsAKilledProcessAndRecordsItsNewPid(@TempDir Path dir) throws Exception {
        ManagedProcess first = sleeper(dir);
        try (Supervisor supervisor = new Supervisor(dir, () -> { })) {
            supervisor.supervise("sleeper", first, () -> sleeper(dir));
            Path pidFile = dir.resolve("pids/sleeper.pid");
            assertThat(pidIn(pidFile)).isEqualTo(first.pid());

            ProcessHandle.of(first.pid()).orElseThrow().destroyForcibly(); // kill -9
            await("the killed process restarted").atMost(Duration.ofSeconds(20)).until(() -> pidIn(pidFile) != first.pid());
            long second = pidIn(pidFile);
            assertThat(second).isNotEqualTo(first.pid());
            assertThat(ProcessHandle.of(second).map(ProcessHandle::isAlive)).contains(true);
            assertThat(Files.readString(dir.resolve("pids/sleeper.restarts")).trim()).isEqualTo("1");

            supervisor.halt();
            supervisor.current("sleeper").stop();
            // held for longer than the back-off before a restart
            await("no restart once halted").during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(10))
                    .until(() -> pidIn(pidFile) == second);
            assertThat(supervisor.current("sleeper").isAlive()).isFalse();
        }
    }
}
