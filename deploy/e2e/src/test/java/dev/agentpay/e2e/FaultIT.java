package dev.agentpay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.localstack.Ports;
import dev.agentpay.localstack.RepoPaths;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * The fault-injection suite (issue 10): a steady load of mandate flows, paid invoices, x402 paid calls
 * and webhook deliveries through the gateway of the shared launcher stack while the schedule of {@link Faults}
 * kills each service, the broker, PostgreSQL, a payment chain and the facilitator ({@code kill -9}; the
 * launcher restarts them), reorganises the payment chains and takes the webhook receiver down. After a
 * drain, {@link FaultChecks} counts the invariants' violations from the HTTP APIs, the chains, Kafka and
 * the databases (read only). Short form by default; long form:
 * {@code -Dfaults.duration=PT10M -Dfaults.count=120 -De2e.replicas=2} (two instances of every service behind the
 * gateway's balancer, issue 29: a kill hits instance 1 of its service). The report goes to {@code target/faults-report.md}.
 */
@Order(90) // after every other IT (it kills things), before StackStopIT
class FaultIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final List<String> SUBSCRIBED = List.of("mandate.proposed", "mandate.signed_by_proposer", "mandate.signed_by_both",
            "mandate.in_progress", "mandate.completed", "mandate.disputed", "invoice.created", "invoice.settled", "invoice.unsettled");

    @Test
    void underFaultsNothingIsLostDoubledOrHung() throws Exception {
        Map<String, String> env = SharedStack.env();
        LocalStackProcess stack = SharedStack.process();
        Duration duration = Duration.parse(System.getProperty("faults.duration", "PT90S"));
        int count = Integer.getInteger("faults.count", Faults.ROUND.size());
        int mandateThreads = Integer.getInteger("faults.mandateThreads", 2);
        int invoiceThreads = Integer.getInteger("faults.invoiceThreads", 1);
        int x402Threads = Integer.getInteger("faults.x402Threads", 1);
        Duration drain = Duration.parse(System.getProperty("faults.drain", "PT4M"));
        long seed = Long.getLong("faults.seed", new java.security.SecureRandom().nextLong());
        System.out.println("[faults] seed " + seed + " (again with -Dfaults.seed=" + seed + ")");
        long wall0 = System.currentTimeMillis();
        Instant start = Instant.now().minusSeconds(1);

        WebhookReceiver receiver = new WebhookReceiver(Ports.free(), 0.02, new java.util.Random(seed));
        receiver.start();
        FaultLoad load = new FaultLoad(env, new java.util.Random(seed + 1));
        Map<String, java.math.BigInteger> sellerBefore = FaultChecks.sellerBalances(env);
        List<String> paths = List.of("/hooks/a", "/hooks/b");
        for (String path : paths) {
            byte[] key = new byte[32];
            ThreadLocalRandom.current().nextBytes(key);
            Calls.Answer a = load.calls.retrying("webhook.subscribe", "POST", "/v1/webhooks",
                    JSON.writeValueAsString(Map.of("url", receiver.url(path), "events", SUBSCRIBED,
                            "secret", "whsec_" + Base64.getEncoder().encodeToString(key), "description", "fault suite")),
                    Map.of(), Duration.ofSeconds(30));
            assertThat(a.status()).as("subscribe: " + a.body()).isEqualTo(201);
        }
        Instant subscribedAt = Instant.now();

        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < mandateThreads; i++) {
            workers.add(new Thread(load.mandateWorker(), "load-mandate-" + i));
        }
        for (int i = 0; i < invoiceThreads; i++) {
            workers.add(new Thread(load.invoiceWorker(), "load-invoice-" + i));
        }
        for (int i = 0; i < x402Threads; i++) {
            workers.add(new Thread(load.x402Worker(), "load-x402-" + i));
        }
        // charges racing against mandate budgets while mandate-service and invoice-service are killed (issue 28)
        workers.add(new Thread(load.budgetWorker(), "load-budget-0"));
        // budgets in escrow on base, charged (releases) and disputed (freeze, resolve) while services are killed (issue 30)
        workers.add(new Thread(load.escrowWorker(), "load-escrow-0"));
        workers.forEach(Thread::start);

        Faults faults = new Faults(stack.stateDir, env, receiver, new java.util.Random(seed + 2));
        long faultStart = System.currentTimeMillis() + 5_000; // a few seconds of load before the first fault
        long interval = duration.toMillis() / Math.max(1, count);
        for (int i = 0; i < count; i++) {
            String spec = Faults.ROUND.get(i % Faults.ROUND.size());
            long due = faultStart + i * interval;
            while (System.currentTimeMillis() < due) {
                Thread.sleep(100); // pacing: the schedule spreads the faults over the load's duration (a clock, no condition)
            }
            awaitPreviousRecovered(faults, spec);
            try {
                Faults.Fault f = faults.inject(spec);
                System.out.printf("[faults] %4.0fs #%d %s %s %s%n", (System.currentTimeMillis() - wall0) / 1000.0, i + 1,
                        f.kind, f.target, f.detail);
            } catch (Exception e) {
                System.out.println("[faults] could not inject " + spec + ": " + e);
            }
        }
        while (System.currentTimeMillis() < faultStart + duration.toMillis()) {
            Thread.sleep(200); // pacing: the load runs for its whole duration after the last fault (a clock, no condition)
        }
        long loadEnd = System.currentTimeMillis();
        load.stop();
        for (Thread t : workers) {
            t.join(200_000);
        }
        faults.awaitAllRecovered(Duration.ofMinutes(4));

        // Drain: effects are eventual (anchoring, settlement, webhook retries); check until they converge.
        FaultChecks checks = new FaultChecks(env, load, receiver, faults, start, subscribedAt, paths, sellerBefore);
        // Checked in this thread, so a check running at the deadline finishes and its result counts.
        AtomicReference<FaultChecks.Result> last = new AtomicReference<>();
        try {
            await("the invariants to hold after the drain").atMost(drain).pollInSameThread()
                    .pollDelay(Duration.ZERO).pollInterval(Duration.ofSeconds(10)).until(() -> {
                        FaultChecks.Result r = checks.run();
                        last.set(r);
                        if (r.violations() > 0) {
                            System.out.println("[faults] draining: " + r.violations() + " open; " + r.summary());
                        }
                        return r.violations() == 0;
                    });
        } catch (ConditionTimeoutException e) {
            // the last check's violations are the run's result
        }
        FaultChecks.Result result = last.get();
        long wall = System.currentTimeMillis() - wall0;
        String report = report(env, load, faults, result, duration, count, seed, wall, loadEnd - wall0);
        System.out.println(report);
        Path out = RepoPaths.root().resolve("deploy/e2e/target/faults-report.md");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report);
        receiver.stop();

        assertThat(faults.injected).as("faults injected").hasSizeGreaterThanOrEqualTo(count);
        assertThat(load.operations.get()).as("operations done under faults").isGreaterThan(20);
        assertThat(result.violations()).as("violations:\n" + result.details()).isZero();
    }

    private static void awaitPreviousRecovered(Faults faults, String spec) {
        String target = Faults.neededProcess(spec);
        if (target == null) {
            return;
        }
        try {
            await(target + " back from its previous kill").atMost(Faults.RECOVERY_WAIT).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> faults.injected.stream().noneMatch(f -> f.target.equals(target) && f.recoveredMs == 0));
        } catch (ConditionTimeoutException e) {
            System.out.println("[faults] " + e.getMessage() + "; injecting " + spec + " anyway");
        }
    }

    private static String report(Map<String, String> env, FaultLoad load, Faults faults, FaultChecks.Result result,
            Duration duration, int count, long seed, long wallMs, long loadMs) {
        StringBuilder sb = new StringBuilder();
        sb.append("## Fault-injection run ").append(Instant.now()).append("\n\n");
        sb.append("Command: `./mvnw -B -pl deploy/e2e verify -Dit.test=FaultIT")
                .append(" -Dfaults.duration=").append(duration).append(" -Dfaults.count=").append(count)
                .append(" -Dfaults.seed=").append(seed).append("`\n\n");
        sb.append(String.format("Wall time %.0f s (load with faults %.0f s, then drain and checks).%n%n", wallMs / 1000.0, loadMs / 1000.0));
        List<Calls.Call> calls = load.calls.calls();
        Map<String, Long> byOp = calls.stream().collect(Collectors.groupingBy(Calls.Call::op, TreeMap::new, Collectors.counting()));
        sb.append("| operations | count |\n|---|---|\n");
        sb.append("| acknowledged operations (mandate steps, invoices, payments sent) | ").append(load.operations.get()).append(" |\n");
        sb.append("| HTTP requests through the gateway (retries included) | ").append(calls.size()).append(" |\n");
        byOp.forEach((op, n) -> sb.append("| &nbsp; ").append(op).append(" | ").append(n).append(" |\n"));
        sb.append("| mandates created | ").append(load.mandates.size()).append(" |\n");
        sb.append("| mandates with a budget / charges accepted (6 raced per budget, at most 4 fit) | ")
                .append(load.budgetMandates.size()).append(" / ").append(load.chargesAccepted.get()).append(" |\n");
        sb.append("| mandates with an escrow on base / disputed and resolved | ").append(load.escrowMandates.size()).append(" / ")
                .append(load.escrowResolved.size()).append(" |\n");
        sb.append("| invoices created / USDC payments sent | ").append(load.invoices.size()).append(" / ").append(load.payments.size()).append(" |\n");
        sb.append("| x402 paid calls (one signed payment each) / answered 200 | ").append(load.x402Payments.size()).append(" / ")
                .append(load.x402Payments.stream().filter(p -> !p.acceptedInvoiceIds().isEmpty()).count()).append(" |\n");
        sb.append("| webhook deliveries received | ").append(result.deliveriesReceived()).append(" |\n");
        sb.append("| flows given up after 150 s of retries | ").append(load.flowsAbandoned.get()).append(" |\n\n");
        Map<String, Long> byKind = faults.injected.stream().collect(Collectors.groupingBy(f -> f.kind + " " + f.target, TreeMap::new, Collectors.counting()));
        sb.append("| faults injected (").append(faults.injected.size()).append(") | count | mean time to serve again |\n|---|---|---|\n");
        byKind.forEach((k, n) -> {
            double mean = faults.injected.stream().filter(f -> (f.kind + " " + f.target).equals(k) && f.recoveredMs > 0)
                    .mapToLong(f -> f.recoveredMs - f.startMs).average().orElse(Double.NaN) / 1000.0;
            sb.append("| ").append(k).append(" | ").append(n).append(" | ").append(String.format("%.1f s", mean)).append(" |\n");
        });
        sb.append("\n| invariant | checked | violations |\n|---|---|---|\n");
        result.rows().forEach(r -> sb.append("| ").append(r.name()).append(" | ").append(r.checked()).append(" | ").append(r.violations()).append(" |\n"));
        sb.append("\n**Total violations: ").append(result.violations()).append("**\n");
        if (!result.notes().isEmpty()) {
            sb.append("\nNotes:\n");
            result.notes().forEach(n -> sb.append("- ").append(n).append('\n'));
        }
        if (result.violations() > 0) {
            sb.append("\nViolations (first of each):\n```\n").append(result.details()).append("```\n");
        }
        return sb.toString();
    }
}
