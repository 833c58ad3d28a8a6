package dev.agentpay.bench.hostile;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Maximum-size hostile bodies against every anonymous endpoint of a running stack, through the gateway,
 * at the per-address rate limit from several client addresses at once (each its own bucket, through
 * {@code X-Forwarded-For}, which the local gateway believes when started with
 * {@code GATEWAY_TRUSTED_PROXIES=127.0.0.0/8}), while a well-behaved
 * client reads the public pricing section and its latency is recorded. Prints, per endpoint, the
 * answers by status and, per service, the resident memory before, at its peak and after, and whether
 * its process id changed (a restart).
 *
 * <p>The body is the worst shape for a tree parser: an array of empty objects filling the route's
 * limit (about 30 bytes of heap per input byte), and the same body one byte over the limit. Each
 * address sends its burst, then its sustained rate, for {@code --duration} seconds; the loop is
 * bounded in count and time and only targets the stack's own loopback URLs.
 *
 * <pre>
 * java -cp bench/target/bench-0.1.0-SNAPSHOT.jar:bench/target/lib/* dev.agentpay.bench.hostile.HostileBodies \
 *      --env /tmp/stack/stack.env --state-dir /tmp/stack [--addresses 8] [--rate 20] [--duration 30]
 * </pre>
 */
public final class HostileBodies {

    static final int LIMIT = 64 * 1024;
    static final String[] SERVICES = {"mandate-service", "invoice-service", "settlement-watcher", "anchor-service",
            "discovery-service", "webhook-dispatcher"};

    record Target(String name, String path, String prefix, String suffix) {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            opts.put(args[i].substring(2), args[i + 1]);
        }
        Map<String, String> env = readEnv(Path.of(opts.getOrDefault("env", ".local/stack.env")));
        int addresses = Integer.parseInt(opts.getOrDefault("addresses", "8"));
        int rate = Integer.parseInt(opts.getOrDefault("rate", "20"));
        int burst = Integer.parseInt(opts.getOrDefault("burst", "40"));
        long seconds = Long.parseLong(opts.getOrDefault("duration", "30"));
        String base = env.get("BASE_URL").replaceAll("/+$", "");

        List<Target> targets = List.of(
                new Target("MCP tools/call", "/disco/mcp",
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"service_get_pricing\",\"arguments\":{\"x\":[", "]}}}"),
                new Target("x402 invoice", "/api/x402/invoice", "{\"description\":[", "]}"),
                new Target("x402 settle", "/api/x402/settle", "{\"invoice_id\":[", "]}"),
                new Target("mandate create (no key)", "/v1/mandates", "{\"terms\":[", "]}"));

        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        Map<String, Long> pidsBefore = pids();
        Map<String, Long> rssBefore = rss(pidsBefore);
        Map<String, Long> rssPeak = new ConcurrentHashMap<>(rssBefore);
        ExecutorService pool = Executors.newFixedThreadPool(addresses * 4 + 2);
        Map<String, Map<Integer, AtomicLong>> statuses = new ConcurrentHashMap<>();
        List<Long> politeMillis = java.util.Collections.synchronizedList(new ArrayList<>());
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);

        // the sampler: resident memory of every service every 250 ms
        pool.submit(() -> {
            while (System.nanoTime() < end) {
                rss(pidsBefore).forEach((k, v) -> rssPeak.merge(k, v, Math::max));
                sleep(250);
            }
        });
        // the polite client: one public read every 200 ms, its own address
        pool.submit(() -> {
            while (System.nanoTime() < end) {
                long t0 = System.nanoTime();
                try {
                    http.send(HttpRequest.newBuilder(URI.create(base + "/disco/sections/pricing.json"))
                            .header("X-Forwarded-For", "198.51.100.250").timeout(Duration.ofSeconds(30)).build(),
                            HttpResponse.BodyHandlers.discarding());
                    politeMillis.add((System.nanoTime() - t0) / 1_000_000);
                } catch (Exception e) {
                    politeMillis.add(-1L);
                }
                sleep(200);
            }
        });
        for (int a = 0; a < addresses; a++) {
            String address = "203.0.113." + (a + 1);
            for (Target t : targets) {
                byte[] fits = body(t, LIMIT);
                byte[] over = body(t, LIMIT + 1);
                pool.submit(() -> {
                    // the burst at once, then the sustained rate, alternating a body at the limit and one byte over
                    long sent = 0;
                    long start = System.nanoTime();
                    while (System.nanoTime() < end) {
                        long allowed = burst + (System.nanoTime() - start) * rate / 1_000_000_000L;
                        if (sent >= allowed) {
                            sleep(5);
                            continue;
                        }
                        byte[] b = sent % 2 == 0 ? fits : over;
                        sent++;
                        int status;
                        try {
                            status = http.send(HttpRequest.newBuilder(URI.create(base + t.path()))
                                    .header("Content-Type", "application/json").header("X-Forwarded-For", address)
                                    .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofByteArray(b)).build(),
                                    HttpResponse.BodyHandlers.discarding()).statusCode();
                        } catch (Exception e) {
                            status = -1;
                        }
                        statuses.computeIfAbsent(t.name(), k -> new ConcurrentHashMap<>())
                                .computeIfAbsent(status, k -> new AtomicLong()).incrementAndGet();
                    }
                });
            }
        }
        pool.shutdown();
        pool.awaitTermination(seconds + 120, TimeUnit.SECONDS);
        sleep(5000);
        Map<String, Long> pidsAfter = pids();
        Map<String, Long> rssAfter = rss(pidsAfter);

        System.out.printf("%d addresses x %d endpoints, burst %d then %d/s each, %d s; bodies of %d and %d bytes (arrays of {})%n%n",
                addresses, targets.size(), burst, rate, seconds, LIMIT, LIMIT + 1);
        System.out.println("| endpoint | answers by status (-1: no answer) |");
        System.out.println("|---|---|");
        for (Target t : targets) {
            System.out.println("| " + t.name() + " `" + t.path() + "` | " + new java.util.TreeMap<>(statuses.getOrDefault(t.name(), Map.of())) + " |");
        }
        System.out.println();
        System.out.println("| service | RSS before (MB) | peak (MB) | after (MB) | restarted |");
        System.out.println("|---|---|---|---|---|");
        for (String s : SERVICES) {
            System.out.printf("| %s | %s | %s | %s | %s |%n", s, mb(rssBefore.get(s)), mb(rssPeak.get(s)), mb(rssAfter.get(s)),
                    pidsBefore.get(s) == null ? "?" : (pidsBefore.get(s).equals(pidsAfter.get(s)) ? "no" : "YES"));
        }
        List<Long> ok = politeMillis.stream().filter(m -> m >= 0).sorted().toList();
        long failed = politeMillis.stream().filter(m -> m < 0).count();
        System.out.printf("%npolite reader (pricing section, 5/s): %d reads, %d failed, median %s ms, p99 %s ms, max %s ms%n",
                politeMillis.size(), failed, pct(ok, 0.5), pct(ok, 0.99), ok.isEmpty() ? "-" : ok.get(ok.size() - 1));
    }

    static byte[] body(Target t, int size) {
        StringBuilder sb = new StringBuilder(size).append(t.prefix());
        int room = size - t.prefix().length() - t.suffix().length();
        int n = Math.max(0, (room + 1) / 3);
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "{}" : ",{}");
        }
        while (sb.length() + t.suffix().length() < size) {
            sb.append(' ');
        }
        sb.setLength(Math.min(sb.length(), size - t.suffix().length()));
        if (sb.charAt(sb.length() - 1) == ',') {
            sb.setCharAt(sb.length() - 1, ' ');
        }
        return sb.append(t.suffix()).toString().getBytes(StandardCharsets.UTF_8);
    }

    /** This checkout's services only (other stacks may run on the machine): the launcher names each jar by its absolute path. */
    static Map<String, Long> pids() {
        Map<String, Long> out = new LinkedHashMap<>();
        String root = Path.of("").toAbsolutePath().normalize() + "/";
        ProcessHandle.allProcesses().forEach(p -> p.info().commandLine().ifPresent(cmd -> {
            for (String s : SERVICES) {
                if (cmd.contains(root + s + "/target/quarkus-app/quarkus-run.jar")) {
                    out.putIfAbsent(s, p.pid());
                }
            }
        }));
        return out;
    }

    static Map<String, Long> rss(Map<String, Long> pids) {
        Map<String, Long> out = new HashMap<>();
        pids.forEach((s, pid) -> {
            try {
                for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                    if (line.startsWith("VmRSS:")) {
                        out.put(s, Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024);
                    }
                }
            } catch (Exception e) {
                // gone: counted as a restart by the pid check
            }
        });
        return out;
    }

    static String mb(Long bytes) {
        return bytes == null ? "-" : String.valueOf(bytes / (1024 * 1024));
    }

    static String pct(List<Long> sorted, double p) {
        return sorted.isEmpty() ? "-" : String.valueOf(sorted.get((int) Math.min(sorted.size() - 1, Math.floor(p * sorted.size()))));
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static Map<String, String> readEnv(Path p) throws java.io.IOException {
        Map<String, String> out = new HashMap<>(System.getenv());
        for (String line : Files.readAllLines(p)) {
            int eq = line.indexOf('=');
            if (eq > 0 && !line.startsWith("#")) {
                out.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
            }
        }
        return out;
    }
}
