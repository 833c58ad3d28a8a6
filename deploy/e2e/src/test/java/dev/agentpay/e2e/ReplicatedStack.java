package dev.agentpay.e2e;

import dev.agentpay.localstack.RepoPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A second launcher run with {@code --replicas 2} (two instances of every service behind the gateway's
 * balancer), shared by {@link FailoverIT} and {@link RollingRestartIT}: started by the first that asks,
 * stopped by the last ({@link RollingRestartIT}) or at JVM exit. Its own state directory, its own ports.
 */
final class ReplicatedStack {

    static final int REPLICAS = 2;
    private static LocalStackProcess process;
    private static Map<String, String> env;

    private ReplicatedStack() {
    }

    static synchronized Map<String, String> env() throws Exception {
        if (process == null) {
            Path dir = RepoPaths.root().resolve("deploy/e2e/target/replicas-" + System.currentTimeMillis());
            process = new LocalStackProcess(dir, List.of("--replicas", Integer.toString(REPLICAS)));
            Runtime.getRuntime().addShutdownHook(new Thread(ReplicatedStack::stopQuietly, "e2e-replicas-stop"));
            env = process.start(Duration.ofMinutes(8));
        }
        return env;
    }

    static synchronized Path stateDir() throws Exception {
        env();
        return process.stateDir;
    }

    /** The current pid of an instance ({@code <service>} for instance 1, {@code <service>-n} after). */
    static long pid(String instance) throws Exception {
        return Long.parseLong(Files.readString(stateDir().resolve("pids").resolve(instance + ".pid")).trim());
    }

    static synchronized void stop() throws InterruptedException {
        if (process != null) {
            process.stop();
            process = null;
        }
    }

    private static void stopQuietly() {
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
