package dev.agentpay.e2e;

import static org.awaitility.Awaitility.await;

import dev.agentpay.localstack.LocalStack;
import dev.agentpay.localstack.RepoPaths;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    /** Every instance of every service answers ready (a killed one has been restarted by the launcher). */
    static void awaitAllReady() throws Exception {
        for (LocalStack.Service s : LocalStack.SERVICES) {
            for (int n = 1; n <= REPLICAS; n++) {
                awaitReady(n == 1 ? s.name() : s.name() + "-" + n);
            }
        }
    }

    /** One instance ({@code <service>} or {@code <service>-n}) answers ready on its own port. */
    static void awaitReady(String instance) throws Exception {
        Matcher m = INSTANCE.matcher(instance);
        if (!m.matches()) {
            throw new IllegalArgumentException(instance);
        }
        int n = m.group(2) == null ? 1 : Integer.parseInt(m.group(2));
        String url = env().get(m.group(1).toUpperCase(Locale.ROOT).replace('-', '_') + "_URLS").split(",")[n - 1];
        await(instance + " ready").atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(250)).ignoreExceptions()
                .until(() -> HTTP.send(HttpRequest.newBuilder(URI.create(url + "/q/health/ready")).timeout(Duration.ofSeconds(2)).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
    }

    private static final Pattern INSTANCE = Pattern.compile("([a-z]+(?:-[a-z]+)*)(?:-(\\d+))?");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

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
