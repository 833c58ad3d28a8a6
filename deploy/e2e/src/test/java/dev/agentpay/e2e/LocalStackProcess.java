package dev.agentpay.e2e;

import static org.awaitility.Awaitility.await;

import dev.agentpay.localstack.Ports;
import dev.agentpay.localstack.RepoPaths;
import dev.agentpay.localstack.ServiceLauncher;
import dev.agentpay.localstack.StackEnv;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The launcher run the way a user runs it ({@code java -jar local-stack.jar run}), with its state in
 * a test folder, stopped with SIGTERM as Ctrl-C would.
 */
final class LocalStackProcess {

    /** The webhook retry schedule of the test stack: ten attempts, as the production one, within about 5 minutes. */
    static final String RETRY_SCHEDULE = "0s,5s,10s,20s,30s,40s,50s,60s,60s,60s";

    final Path stateDir;
    final int gatewayPort;
    private final List<String> extraArgs;
    private Process process;
    /** What the test stacks add to the launcher's default service JVM options (see {@link #start}). */
    static final String TEST_JIT = "-XX:TieredStopAtLevel=1";

    LocalStackProcess(Path stateDir) {
        this(stateDir, List.of());
    }

    /** @param extraArgs more launcher options, e.g. {@code --replicas 2} */
    LocalStackProcess(Path stateDir, List<String> extraArgs) {
        this.stateDir = stateDir;
        this.gatewayPort = Ports.free();
        this.extraArgs = List.copyOf(extraArgs);
    }

    Map<String, String> start(Duration timeout) throws IOException, InterruptedException {
        Path jar = RepoPaths.root().resolve("deploy/local/target/local-stack-0.1.0-SNAPSHOT.jar");
        Files.createDirectories(stateDir);
        Files.deleteIfExists(stateDir.resolve("stack.env"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new java.util.ArrayList<>(List.of(java, "-Xmx384m", "-jar", jar.toString(), "run",
                "--state-dir", stateDir.toString(), "--gateway-port", Integer.toString(gatewayPort), "--any-ports"));
        cmd.addAll(extraArgs);
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .directory(RepoPaths.root().toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(stateDir.resolve("launcher.out").toFile()));
        // The launcher's services inherit this. A delivery that meets two faults (a deliberate 500, then the
        // receiver down) would wait the production schedule's 5 min for its third attempt, and every later
        // event of the same resource with it, longer than the fault suite's drain; a shorter schedule with the
        // same number of attempts keeps retries inside the test while still going through the durable path.
        pb.environment().put("WEBHOOK_RETRY_SCHEDULE", RETRY_SCHEDULE);
        // The tests stand in for many clients behind one proxy: the gateway believes their X-Forwarded-For
        // (each test picks its own address, hence its own rate-limit bucket). A plain `deploy/local/run`
        // believes nobody's (root README, "The local gateway").
        pb.environment().put("GATEWAY_TRUSTED_PROXIES", "127.0.0.0/8,::1/128");
        // Every service exports its spans over OTLP/HTTP to the test JVM's receiver, as to an operator's collector
        // (TracingIT reads one trace back from it); a short batch delay keeps the wait short.
        pb.environment().put("OTEL_EXPORTER_OTLP_ENDPOINT", OtlpReceiver.shared().endpoint());
        pb.environment().put("PLATFORM_TRACING_OTLP_SCHEDULE_DELAY_MILLIS", "200");
        // The service JVMs of a test stack compile with C1 only: seven to fourteen of them start side by side on two
        // cores, and the tests measure behaviour (and latency against the same stack's own steady state), not peak
        // speed. C2's compile threads then no longer compete with starting instances: the 14-JVM stack was ready in
        // 65 s instead of 100 s. bench/ measures the launcher's default options. SERVICE_JAVA_OPTS set outside wins.
        pb.environment().putIfAbsent("SERVICE_JAVA_OPTS", ServiceLauncher.DEFAULT_JAVA_OPTS + " " + TEST_JIT);
        process = pb.start();
        Path env = stateDir.resolve("stack.env");
        await("the stack ready (stack.env written); see " + stateDir.resolve("launcher.out")).atMost(timeout)
                .pollInterval(Duration.ofMillis(250))
                .failFast("the launcher exited; see " + stateDir.resolve("launcher.out"), () -> !process.isAlive())
                .until(() -> Files.exists(env));
        return StackEnv.read(env);
    }

    /** The launcher's output so far (for failure messages). */
    String output() {
        try {
            return Files.readString(stateDir.resolve("launcher.out"));
        } catch (IOException e) {
            return "(no output: " + e.getMessage() + ")";
        }
    }

    /** SIGTERM, as Ctrl-C; returns the pids the launcher had started. */
    List<Long> stop() throws InterruptedException {
        List<Long> children = process.descendants().map(ProcessHandle::pid).toList();
        process.destroy();
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        return children;
    }
}
