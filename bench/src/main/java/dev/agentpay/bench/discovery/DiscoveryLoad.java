package dev.agentpay.bench.discovery;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * Closed-loop load on the discovery surface: GET of the manifest and a section (with and without
 * If-None-Match), MCP {@code tools/list} and {@code tools/call service_get_pricing}. Prints one
 * markdown table row per scenario: requests per second, p50/p99 latency, errors.
 *
 * Every scenario is warmed up (3 s) before the first is measured.
 *
 * <p>{@code BASE_URL} (default http://127.0.0.1:8085), {@code CONCURRENCY} (16), {@code SECONDS} (10),
 * {@code ONLY_MCP} ({@code true}: only the MCP rows, for servers without the documents).
 */
public final class DiscoveryLoad {

    record Scenario(String name, HttpRequest request, int expect) {
    }

    public static void main(String[] args) throws Exception {
        String base = System.getenv().getOrDefault("BASE_URL", "http://127.0.0.1:8085").replaceAll("/+$", "");
        int concurrency = Integer.parseInt(System.getenv().getOrDefault("CONCURRENCY", "16"));
        int seconds = Integer.parseInt(System.getenv().getOrDefault("SECONDS", "10"));
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .executor(Executors.newFixedThreadPool(4)).build();
        boolean onlyMcp = Boolean.parseBoolean(System.getenv().getOrDefault("ONLY_MCP", "false"));
        String etag = onlyMcp ? "\"none\"" : client.send(HttpRequest.newBuilder(URI.create(base + "/.well-known/disco.json")).build(),
                HttpResponse.BodyHandlers.discarding()).headers().firstValue("etag").orElse("\"none\"");
        List<Scenario> all = List.of(
                new Scenario("GET /.well-known/disco.json", get(base + "/.well-known/disco.json", null), 200),
                new Scenario("GET /.well-known/disco.json (If-None-Match, 304)", get(base + "/.well-known/disco.json", etag), 304),
                new Scenario("GET /disco/sections/pricing.json", get(base + "/disco/sections/pricing.json", null), 200),
                new Scenario("MCP tools/list", rpc(base, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"), 200),
                new Scenario("MCP tools/call service_get_pricing", rpc(base,
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"service_get_pricing\",\"arguments\":{}}}"), 200));
        List<Scenario> scenarios = onlyMcp ? all.stream().filter(x -> x.name().startsWith("MCP")).toList() : all;
        System.out.printf("concurrency %d, %d s per scenario, %s%n%n", concurrency, seconds, base);
        System.out.println("| scenario | req/s | p50 ms | p99 ms | errors |");
        System.out.println("|---|---:|---:|---:|---:|");
        for (Scenario s : scenarios) {
            run(client, s, concurrency, 3); // warm-up of every path before any measurement
        }
        for (Scenario s : scenarios) {
            long[] r = run(client, s, concurrency, seconds);
            Histogram h = lastHistogram;
            System.out.printf("| %s | %.0f | %.2f | %.2f | %d |%n", s.name(), r[0] / (double) seconds,
                    h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(99) / 1000.0, r[1]);
        }
        System.exit(0);
    }

    private static volatile Histogram lastHistogram;

    private static long[] run(HttpClient client, Scenario s, int concurrency, int seconds) throws Exception {
        Histogram h = new Histogram(60_000_000L, 3);
        AtomicLong ok = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        ExecutorService pool = Executors.newFixedThreadPool(concurrency);
        List<Future<?>> fs = new ArrayList<>();
        for (int i = 0; i < concurrency; i++) {
            fs.add(pool.submit(() -> {
                while (System.nanoTime() < end) {
                    long t0 = System.nanoTime();
                    try {
                        HttpResponse<byte[]> r = client.send(s.request(), HttpResponse.BodyHandlers.ofByteArray());
                        if (r.statusCode() == s.expect()) {
                            ok.incrementAndGet();
                        } else {
                            errors.incrementAndGet();
                        }
                    } catch (Exception e) {
                        errors.incrementAndGet();
                    }
                    synchronized (h) {
                        h.recordValue(Math.min((System.nanoTime() - t0) / 1000, 60_000_000L));
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : fs) {
            f.get();
        }
        pool.shutdown();
        lastHistogram = h;
        return new long[] {ok.get(), errors.get()};
    }

    private static HttpRequest get(String url, String ifNoneMatch) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        if (ifNoneMatch != null) {
            b.header("If-None-Match", ifNoneMatch);
        }
        return b.GET().build();
    }

    private static HttpRequest rpc(String base, String body) {
        return HttpRequest.newBuilder(URI.create(base + "/disco/mcp")).timeout(Duration.ofSeconds(10))
                .header("content-type", "application/json").header("accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }
}
