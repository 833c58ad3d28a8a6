package dev.agentpay.invoice.x402;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.localstack.ManagedProcess;
import dev.agentpay.localstack.Ports;
import dev.agentpay.localstack.RepoPaths;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The x402 bench (not part of the test run: its name does not end in {@code Test}). Runs
 * {@code bench/x402/driver.mjs} against this service's {@code POST /api/x402/invoice} and the official
 * {@code x402-express} reference server ({@code bench/x402/reference-server.mjs}), both paid through the
 * same local facilitator on the same anvil chain, in the same run. Output in
 * {@code invoice-service/target/x402-bench.md}.
 *
 * <pre>./mvnw -B -o -pl invoice-service -am verify -Dtest=X402Bench -Dsurefire.failIfNoSpecifiedTests=false
 *   [-Dbench.x402.duration=10 -Dbench.x402.concurrency=16 -Dbench.x402.paid=30 -Dbench.x402.paidWarmup=30]</pre>
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(FacilitatorTestResource.class)
class X402Bench {

    @TestHTTPResource("/api/x402/invoice")
    URL invoiceUrl;

    @jakarta.inject.Inject
    io.micrometer.core.instrument.MeterRegistry meters;

    @Test
    void challengeRateAndPaidLatencyBesideTheReference() throws Exception {
        Path benchDir = RepoPaths.root().resolve("bench/x402");
        int port = Ports.free();
        ManagedProcess reference = ManagedProcess.start("x402-express-reference", List.of("node", "reference-server.mjs"),
                Map.of("PORT", Integer.toString(port), "PAY_TO", FacilitatorTestResource.SELLER,
                        "FACILITATOR_URL", FacilitatorTestResource.facilitatorUrl()),
                benchDir, RepoPaths.testScratch("reference").resolve("reference.log"));
        try {
            Ports.awaitListening(port, java.time.Duration.ofSeconds(30), reference);
            ObjectNode cfg = X402Client.JSON.createObjectNode();
            ObjectNode targets = cfg.putObject("targets");
            targets.put("invoice-service (Quarkus)", invoiceUrl.toString());
            targets.put("x402-express 1.2.0 reference", "http://127.0.0.1:" + port + "/api/x402/invoice");
            cfg.put("key", FacilitatorTestResource.PAYER_KEY);
            cfg.put("rpc", FacilitatorTestResource.rpcUrl());
            cfg.put("duration", Integer.getInteger("bench.x402.duration", 10));
            cfg.put("concurrency", Integer.getInteger("bench.x402.concurrency", 16));
            cfg.put("paid", Integer.getInteger("bench.x402.paid", 30));
            cfg.put("paidWarmup", Integer.getInteger("bench.x402.paidWarmup", 30));
            Process p = new ProcessBuilder("node", "driver.mjs", cfg.toString()).directory(benchDir.toFile())
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(10, TimeUnit.MINUTES)).isTrue();
            System.out.println(out);
            assertThat(p.exitValue()).isZero();
            assertThat(out).contains("| invoice-service (Quarkus) |");
            out += phases();
            out += wrkChallenges(benchDir, Map.of("invoice-service (Quarkus)", invoiceUrl.toString(),
                    "x402-express 1.2.0 reference", "http://127.0.0.1:" + port + "/api/x402/invoice"));
            System.out.println(out);
            Files.writeString(Path.of("target/x402-bench.md"), out);
        } finally {
            reference.stop();
        }
    }

    /** invoice-service's own split of its paid calls (warm-up calls included), from the {@code x402.phase} timers. */
    private String phases() {
        StringBuilder sb = new StringBuilder("\ninvoice-service paid-call phases (claim and verify start together):\n\n"
                + "| phase | calls | p50 ms | p90 ms | p99 ms |\n|---|---|---|---|---|\n");
        for (String phase : List.of("claim", "verify", "settle", "complete")) {
            io.micrometer.core.instrument.Timer t = meters.find("x402.phase").tag("phase", phase).timer();
            assertThat(t).as("x402.phase timer " + phase).isNotNull();
            java.util.Map<Double, Double> pct = new java.util.HashMap<>();
            for (io.micrometer.core.instrument.distribution.ValueAtPercentile v : t.takeSnapshot().percentileValues()) {
                pct.put(v.percentile(), v.value(TimeUnit.MILLISECONDS));
            }
            sb.append(String.format("| %s | %d | %.1f | %.1f | %.1f |%n", phase, t.count(), pct.getOrDefault(0.5, -1.0),
                    pct.getOrDefault(0.9, -1.0), pct.getOrDefault(0.99, -1.0)));
        }
        for (String path : List.of("/verify", "/settle")) {
            io.micrometer.core.instrument.Timer t = meters.find("x402.facilitator").tag("path", path).tag("outcome", "answered").timer();
            assertThat(t).as("x402.facilitator timer " + path).isNotNull();
            java.util.Map<Double, Double> pct = new java.util.HashMap<>();
            for (io.micrometer.core.instrument.distribution.ValueAtPercentile v : t.takeSnapshot().percentileValues()) {
                pct.put(v.percentile(), v.value(TimeUnit.MILLISECONDS));
            }
            sb.append(String.format("| facilitator %s round trip | %d | %.1f | %.1f | %.1f |%n", path, t.count(),
                    pct.getOrDefault(0.5, -1.0), pct.getOrDefault(0.9, -1.0), pct.getOrDefault(0.99, -1.0)));
        }
        return sb.toString();
    }

    /**
     * The challenge rate again with {@code wrk} (C, epoll), when it is installed: the Node driver's own
     * per-request cost shares the two CPUs with both servers and caps both rates alike, which hides
     * the servers' difference. Rounds alternate between the targets; the median round is reported.
     */
    private static String wrkChallenges(Path benchDir, Map<String, String> targets) throws Exception {
        if (!new java.io.File("/usr/bin/wrk").canExecute()) {
            return "\n(wrk not installed: `apt-get install wrk` for the C-driver challenge phase)\n";
        }
        int seconds = Integer.getInteger("bench.x402.duration", 10);
        int concurrency = Integer.getInteger("bench.x402.concurrency", 16);
        int rounds = Integer.getInteger("bench.x402.wrkRounds", 3);
        Map<String, List<double[]>> results = new java.util.LinkedHashMap<>();
        targets.keySet().forEach(k -> results.put(k, new java.util.ArrayList<>()));
        for (int round = -1; round < rounds; round++) { // round -1 is the warm-up
            for (Map.Entry<String, String> t : targets.entrySet()) {
                Process p = new ProcessBuilder("wrk", "-t1", "-c" + concurrency, "-d" + seconds + "s", "--latency",
                        "-s", "challenge.lua", t.getValue()).directory(benchDir.toFile()).redirectErrorStream(true).start();
                String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
                if (round >= 0) {
                    results.get(t.getKey()).add(new double[] {wrkValue(text, "Requests/sec:"), wrkMillis(text, "50%"),
                            wrkMillis(text, "99%"), wrkValue(text, "") - wrkValue(text, "Non-2xx or 3xx responses:")});
                }
            }
        }
        StringBuilder sb = new StringBuilder("\nChallenge phase with wrk 1 thread, " + concurrency + " connections, " + seconds
                + " s per round, " + rounds + " rounds alternating (median round):\n\n"
                + "| target | 402 challenges/s (rounds) | median p50 ms | median p99 ms |\n|---|---|---|---|\n");
        for (Map.Entry<String, List<double[]>> e : results.entrySet()) {
            List<double[]> r = e.getValue();
            double[] rates = r.stream().mapToDouble(x -> x[0]).sorted().toArray();
            double[] p50 = r.stream().mapToDouble(x -> x[1]).sorted().toArray();
            double[] p99 = r.stream().mapToDouble(x -> x[2]).sorted().toArray();
            // every answer must have been a 402: wrk's non-2xx/3xx count equals its request count
            assertThat(r).allSatisfy(x -> assertThat(x[3]).as("answers that were not 402").isZero());
            sb.append(String.format("| %s | %.0f (%s) | %.2f | %.2f |%n", e.getKey(), rates[rates.length / 2],
                    java.util.Arrays.stream(rates).mapToObj(x -> String.format("%.0f", x)).collect(java.util.stream.Collectors.joining(", ")),
                    p50[p50.length / 2], p99[p99.length / 2]));
        }
        return sb.toString();
    }

    /** A number after {@code label}; the empty label reads the request count ("N requests in ..."). */
    private static double wrkValue(String text, String label) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(label.isEmpty() ? "([0-9]+) requests in"
                : java.util.regex.Pattern.quote(label) + "\\s+([0-9.]+)").matcher(text);
        assertThat(m.find()).as("wrk output has " + label + ": " + text).isTrue();
        return Double.parseDouble(m.group(1));
    }

    private static double wrkMillis(String text, String label) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\s" + java.util.regex.Pattern.quote(label) + "\\s+([0-9.]+)(us|ms|s)").matcher(text);
        assertThat(m.find()).as("wrk output has " + label + ": " + text).isTrue();
        double v = Double.parseDouble(m.group(1));
        return switch (m.group(2)) {
            case "us" -> v / 1000;
            case "s" -> v * 1000;
            default -> v;
        };
    }
}
