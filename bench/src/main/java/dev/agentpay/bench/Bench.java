package dev.agentpay.bench;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The load driver's command line. Reads the stack contract ({@code .local/stack.env} or the
 * environment), runs the named scenarios and prints one markdown row per run.
 *
 * <pre>
 * java -jar bench/target/bench-0.1.0-SNAPSHOT.jar [--env .local/stack.env] [--duration 20] [--concurrency 32]
 *      [--rate N] scenario...
 * </pre>
 * Both modes first run {@code --warmup} seconds (default 5) of the same load and discard them: the
 * driver's own class loading, JIT and connection set-up otherwise show up as the server's latency.
 * Scenarios: {@code gateway-overhead} (the same GET through the gateway and directly),
 * {@code discovery-get}, {@code create-mandate}, {@code signed-mandate}.
 */
public final class Bench {

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new HashMap<>();
        List<String> scenarios = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].startsWith("--")) {
                opts.put(args[i].substring(2), args[++i]);
            } else {
                scenarios.add(args[i]);
            }
        }
        Map<String, String> env = readEnv(Path.of(opts.getOrDefault("env", ".local/stack.env")));
        Duration duration = Duration.ofSeconds(Long.parseLong(opts.getOrDefault("duration", "20")));
        Duration warmup = Duration.ofSeconds(Long.parseLong(opts.getOrDefault("warmup", "5")));
        int concurrency = Integer.parseInt(opts.getOrDefault("concurrency", "32"));
        Integer rate = opts.containsKey("rate") ? Integer.valueOf(opts.get("rate")) : null;

        Vertx vertx = Vertx.vertx();
        WebClient client = WebClient.create(vertx, new WebClientOptions().setMaxPoolSize(Math.max(concurrency, 64))
                .setKeepAlive(true).setPipelining(false).setConnectTimeout(5000).setIdleTimeout(30));
        LoadDriver driver = new LoadDriver(vertx);
        Scenarios s = new Scenarios(client, env);
        System.out.println(LoadDriver.Result.markdownHeader());
        for (String name : scenarios) {
            for (Map.Entry<String, Supplier<Future<?>>> op : s.ops(name).entrySet()) {
                LoadDriver.Result r = rate == null
                        ? driver.closedLoop(op.getKey(), concurrency, warmup, duration, op.getValue())
                        : driver.constantRate(op.getKey(), rate, warmup, duration, op.getValue());
                System.out.println(r.markdownRow());
            }
        }
        vertx.close();
    }

    static Map<String, String> readEnv(Path file) throws IOException {
        Map<String, String> env = new HashMap<>(System.getenv());
        if (Files.exists(file)) {
            for (String line : Files.readAllLines(file)) {
                int eq = line.indexOf('=');
                if (eq > 0 && !line.startsWith("#")) {
                    env.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
        }
        return env;
    }

    /** Fails the future unless the answer has the expected status, so errors are counted. */
    static Future<?> expect(Future<HttpResponse<Buffer>> f, int status) {
        return f.compose(r -> r.statusCode() == status ? Future.succeededFuture(r)
                : Future.failedFuture("status " + r.statusCode() + ": " + r.bodyAsString()));
    }

    static JsonObject json(HttpResponse<Buffer> r) {
        return r.bodyAsJsonObject();
    }
}
