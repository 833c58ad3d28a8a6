package dev.agentpay.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (pidIn(pidFile) == first.pid() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            long second = pidIn(pidFile);
            assertThat(second).isNotEqualTo(first.pid());
            assertThat(ProcessHandle.of(second).map(ProcessHandle::isAlive)).contains(true);
            assertThat(Files.readString(dir.resolve("pids/sleeper.restarts")).trim()).isEqualTo("1");

            supervisor.halt();
            supervisor.current("sleeper").stop();
            Thread.sleep(2500); // longer than the minimum back-off
            assertThat(pidIn(pidFile)).as("no restart once halted").isEqualTo(second);
            assertThat(supervisor.current("sleeper").isAlive()).isFalse();
        }
    }
}
