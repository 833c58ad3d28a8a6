package dev.agentpay.e2e;

import dev.agentpay.localstack.RepoPaths;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The one launcher run of this test JVM: started by the first IT that asks, shared by all of them,
 * stopped (with its checks) by {@link StackStopIT}, the last class, or at JVM exit if that class did
 * not run.
 */
final class SharedStack {

    private static LocalStackProcess process;
    private static Map<String, String> env;
    private static List<Long> stoppedChildren;

    private SharedStack() {
    }

    /** The running stack's {@code stack.env}, starting the stack on first use. */
    static synchronized Map<String, String> env() throws Exception {
        if (stoppedChildren != null) {
            throw new IllegalStateException("the shared stack was already stopped");
        }
        if (process == null) {
            Path dir = RepoPaths.root().resolve("deploy/e2e/target/stack-" + System.currentTimeMillis());
            // -De2e.replicas=N runs the shared stack with N instances of every service (FaultIT's long form: 2)
            int replicas = Integer.getInteger("e2e.replicas", 1);
            LocalStackProcess p = new LocalStackProcess(dir, replicas > 1 ? List.of("--replicas", Integer.toString(replicas)) : List.of());
            process = p;
            Runtime.getRuntime().addShutdownHook(new Thread(SharedStack::stopQuietly, "e2e-stack-stop"));
            env = p.start(Duration.ofMinutes(6));
        }
        return env;
    }

    static synchronized LocalStackProcess process() throws Exception {
        env();
        return process;
    }

    /**
     * Stops the stack as Ctrl-C does, runs {@code whileStopped} (checks on the state it left), and starts
     * it again on the same state directory, as a user's next {@code deploy/local/run}; returns the new
     * {@code stack.env} (every part on new ports: the tests run with {@code --any-ports}).
     */
    static synchronized Map<String, String> restart(java.util.function.Consumer<Path> whileStopped) throws Exception {
        env();
        process.stop();
        whileStopped.accept(process.stateDir);
        env = process.start(Duration.ofMinutes(6));
        return env;
    }

    /** Stops the stack (SIGTERM, as Ctrl-C); returns the pids the launcher had started. */
    static synchronized List<Long> stop() throws InterruptedException {
        if (stoppedChildren == null && process != null) {
            stoppedChildren = process.stop();
        }
        return stoppedChildren == null ? List.of() : stoppedChildren;
    }

    private static void stopQuietly() {
        try {
            stop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
