package dev.agentpay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.localstack.Ports;
import dev.agentpay.localstack.RepoPaths;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.chain.UsdcInstaller;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Issue 29: with two instances of every service ({@link ReplicatedStack}), under a steady mixed load
 * (mandate flows, invoices paid on chain, x402 paid calls, webhook deliveries), every instance of every
 * service is restarted one at a time as a rolling deployment does (SIGTERM: drain, exit; the launcher
 * starts it again; the next one only once it is ready). No client request fails (no 5xx, no request
 * without an answer), nothing is lost or doubled (the fault suite's invariants, {@link FaultChecks}), and
 * anchoring and settlement latency p99 during the roll stay within 2x their steady values (two probe
 * loops, one per kind, measure them: {@link Probe}). Figures: {@code target/rolling-restart.md}.
 *
 * <p>The load is paced ({@link #PAUSE}: each worker waits at least that long between flows) so that two CPUs keep room
 * to start a replacement JVM beside fourteen serving ones: the closed-loop fault-suite load without a pause kept the load
 * average at 33-45, each replacement took 60-112 s to start and the roll 19 minutes (bench/FAULTS.md, "Fourth run").
 * The steady phase collects {@link #STEADY_SAMPLES} probe samples of each kind before the roll starts.
 *
 * <p>In the default {@code verify} ({@code -De2e.rolling=false} leaves it out). Its fifth run failed on latency
 * (settlement p99 2.5 s -> 8.0 s) and one x402 payment over the gateway's 20 s: every new instance did its first
 * elliptic-curve work (web3j's Keys and Sign) on a Vert.x event loop, blocking it 2-9 s; commons
 * {@code chains.CryptoWarmUp} now does it at start. The seventh and eighth, after FailoverIT and DrainIT on the same
 * stack, failed no request and lost or doubled nothing, but went over the latency bound (anchoring 10.4 s, then
 * settlement 8.1 s, each during a restart of the service consuming the next step): a draining instance kept its Kafka
 * partitions until it exited, 5-9 s, applying nothing. Since commons {@code Consumers.handOver} hands them over at
 * SIGTERM, the ninth (2026-11-28 01:27, same order) passed with anchoring p99 5.2 s steady, 3.3 s during the roll and
 * settlement 4.1 s, 2.6 s (bench/FAULTS.md).
 */
@Order(-1) // after FailoverIT and DrainIT, on the same stack, which it stops before the shared stack starts
@org.junit.jupiter.api.condition.DisabledIfSystemProperty(named = "e2e.rolling", matches = "false")
class RollingRestartIT {

    /** Whether this class runs: unless {@code -De2e.rolling=false}. */
    static final boolean ENABLED = !"false".equals(System.getProperty("e2e.rolling"));

    /** The load's least pause between two flows of a worker ({@code -De2e.roll.pauseMs}). */
    static final Duration PAUSE = Duration.ofMillis(Long.getLong("e2e.roll.pauseMs", 1500));
    /** Probe samples of each kind the steady phase collects before the roll starts ({@code -De2e.roll.steadySamples}). */
    static final int STEADY_SAMPLES = Integer.getInteger("e2e.roll.steadySamples", 20);
    /** The consumer group of each service whose partitions must move when an instance stops (one per service). */
    static final Map<String, String> GROUPS = Map.of("mandate-service", "mandate-service.anchor-receipts",
            "invoice-service", "invoice-service", "settlement-watcher", "settlement-watcher-deposits",
            "anchor-service", "anchor-service", "discovery-service", "discovery-trust-mandates",
            "webhook-dispatcher", "webhook-dispatcher-mandate", "anchor-service-base", "anchor-service-8453");
    /** The lease a service's instance may hold (base's chain stands for the watcher's chains). */
    static final Map<String, String> LEASES = Map.of("anchor-service", "anchor:anchor-service.signer",
            "settlement-watcher", "watcher:settlement-watcher.chain.base", "anchor-service-base", "anchor_base:anchor-service.signer");
    static final List<String> SERVICES = List.of("mandate-service", "invoice-service", "settlement-watcher", "anchor-service",
            "discovery-service", "webhook-dispatcher", "anchor-service-base");
    private static final ObjectMapper JSON = new ObjectMapper();
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    /** The instance being restarted (from its SIGTERM until its replacement is ready), "-" between two: labels probe samples. */
    static volatile String restarting = "-";

    @AfterAll
    static void stopStack() throws InterruptedException {
        ReplicatedStack.stop();
    }

    /**
     * Latency samples (ms) of the probe flows, by phase: two loops side by side, one timing anchoring, one settlement,
     * each starting its next flow 1 s after the last, so that a roll of about 500 s gives each kind well over a hundred
     * samples and the p99 is not simply the slowest one (one loop timing both gave 86-94).
     */
    static final class Probe {
        final List<Long> anchoring = new CopyOnWriteArrayList<>();
        final List<Long> settlement = new CopyOnWriteArrayList<>();
        /** Every sample with when it ended and the instance restarting when it started, for the report's slowest ones. */
        final List<String> labelled = new CopyOnWriteArrayList<>();
        final AtomicBoolean running = new AtomicBoolean(true);
        /** Probe flows that failed (a request refused or a step not seen within 60 s): client failures too. */
        final List<String> failures = new CopyOnWriteArrayList<>();
        final Map<String, String> env;
        final MandateFlows flows;
        final EvmRpc base;
        final List<Thread> loops;

        Probe(Map<String, String> env, String phase) {
            this.env = env;
            this.flows = new MandateFlows(env.get("BASE_URL"), env.get("API_KEY"), env.get("SIGNING_SECRET"));
            this.base = new EvmRpc(env.get("CHAIN_BASE_RPC_URL"));
            this.loops = List.of(new Thread(() -> loop(this::anchoringFlow), "roll-probe-anchoring-" + phase),
                    new Thread(() -> loop(this::settlementFlow), "roll-probe-settlement-" + phase));
            loops.forEach(Thread::start);
        }

        /** Stops both loops once their flow in hand ends. */
        void stop() throws InterruptedException {
            running.set(false);
            for (Thread t : loops) {
                t.join(120_000);
            }
        }

        interface Flow {
            void run() throws Exception;
        }

        private void loop(Flow flow) {
            while (running.get()) {
                try {
                    flow.run();
                } catch (Exception | AssertionError e) {
                    failures.add(e.toString());
                    System.out.println("[roll] probe flow failed: " + e);
                }
                Calls.sleep(1000); // pacing: the next flow 1 s after the last (a clock, no condition)
            }
        }

        /** The last signature acknowledged -> both transitions anchored. */
        private void anchoringFlow() throws Exception {
            String id = flows.create();
            JsonNode m = flows.get(id);
            String sig = flows.signature(m);
            flows.sign(id, "proposer", sig);
            flows.sign(id, "counterparty", sig);
            long t0 = System.currentTimeMillis();
            String during = restarting;
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> anchored(flows.get(id)) == 2);
            long anchorMs = System.currentTimeMillis() - t0;
            anchoring.add(anchorMs);
            labelled.add(label("anchoring", anchorMs, during, "mandate " + id));
        }

        /** The payment mined -> SETTLED. */
        private void settlementFlow() throws Exception {
            String invoice = io.restassured.RestAssured.given().baseUri(env.get("BASE_URL")).header("x-api-key", env.get("API_KEY"))
                    .contentType("application/json").body("{\"amount\": 0.5, \"chain\": \"base\"}").post("/v1/invoices")
                    .then().statusCode(201).extract().asString();
            JsonNode inv = JSON.readTree(invoice).get("data");
            UsdcInstaller.transfer(base, env.get("CHAIN_BASE_USDC_ADDRESS"), env.get("DEV_PAYER_ADDRESS"),
                    inv.at("/paymentDetails/paymentAddress").asText(), BigInteger.valueOf(500_000));
            long t1 = System.currentTimeMillis();
            String settling = restarting;
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).until(() -> "SETTLED".equals(
                    io.restassured.RestAssured.given().baseUri(env.get("BASE_URL")).header("x-api-key", env.get("API_KEY"))
                            .get("/v1/invoices/" + inv.get("id").asText()).then().extract().path("data.status")));
            long settleMs = System.currentTimeMillis() - t1;
            settlement.add(settleMs);
            labelled.add(label("settlement", settleMs, settling, "invoice " + inv.get("id").asText()));
        }

        /** A sample as the report lists it: kind, milliseconds (zero-padded to sort), end time, restart in progress, subject. */
        static String label(String kind, long ms, String during, String subject) {
            return String.format("%s %06d ms, ended %s, restarting: %s, %s", kind, ms, Instant.now(), during, subject);
        }

        /** The {@code n} slowest samples of a kind, slowest first. */
        List<String> slowest(String kind, int n) {
            return labelled.stream().filter(l -> l.startsWith(kind + " ")).sorted(java.util.Comparator.reverseOrder()).limit(n).toList();
        }

        static int anchored(JsonNode mandate) {
            int n = 0;
            JsonNode ts = mandate.get("transitions");
            for (int i = 1; i < ts.size(); i++) {
                if (!ts.get(i).get("anchor_tx_hash").isNull()) {
                    n++;
                }
            }
            return n;
        }
    }

    static long p99(List<Long> samples) {
        if (samples.isEmpty()) {
            return -1;
        }
        List<Long> s = new ArrayList<>(samples);
        Collections.sort(s);
        return s.get(Math.min(s.size() - 1, (int) Math.ceil(s.size() * 0.99) - 1));
    }

    /** One service's instances restarted one at a time: SIGTERM, then the next only once the replacement is ready. */
    private void roll(Map<String, String> env, String service, List<String> log) throws Exception {
        for (int n = 1; n <= ReplicatedStack.REPLICAS; n++) {
            String instance = n == 1 ? service : service + "-" + n;
            ReplicatedStack.awaitReady(instance);
            String group = GROUPS.get(service);
            Set<String> members = FailoverIT.members(env, group);
            String lease = LEASES.get(service);
            String holder = lease == null ? null : FailoverIT.holderOrNull(env, lease);
            boolean holds = holder != null && FailoverIT.instanceOf(holder).equals(instance);
            long pid = ReplicatedStack.pid(instance);
            ProcessHandle process = ProcessHandle.of(pid).orElseThrow();
            long t0 = System.currentTimeMillis();
            restarting = instance;
            FailoverIT.signal("TERM", pid);
            // the consumers hand their partitions over at the start of the drain (commons Consumers.handOver): watched from the SIGTERM
            java.util.concurrent.CompletableFuture<Long> groupMoved = java.util.concurrent.CompletableFuture.supplyAsync(
                    () -> FailoverIT.groupMoved(env, group, members, t0));
            // a draining instance keeps working until it exits (requests, its batch, its lease, its partitions):
            // the work must have moved within the bound of its exit (DrainIT checks the drain itself)
            process.onExit().get(90, java.util.concurrent.TimeUnit.SECONDS);
            long exit = System.currentTimeMillis();
            String moved = String.format("drained and exited %.1f s; after the exit: ", (exit - t0) / 1000.0);
            if (holds) {
                await(lease + " moves off " + instance).atMost(FailoverIT.left(exit)).pollInterval(Duration.ofMillis(100))
                        .until(() -> FailoverIT.holderOrNull(env, lease), h -> h != null && !h.equals(holder));
                moved += String.format("%s %.1f s, ", lease, (System.currentTimeMillis() - exit) / 1000.0);
            }
            long groupMs = groupMoved.get(FailoverIT.MOVE_LIMIT.toMillis() + 10_000, java.util.concurrent.TimeUnit.MILLISECONDS);
            moved += String.format("%s partitions %.1f s after the SIGTERM", group, groupMs / 1000.0);
            await(instance + " restarted and ready").atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofMillis(250))
                    .ignoreExceptions().until(() -> ReplicatedStack.pid(instance) != pid);
            ReplicatedStack.awaitReady(instance);
            restarting = "-";
            long readyMs = System.currentTimeMillis() - t0;
            FailoverFigures.row(String.format("| %s | SIGTERM (rolling restart) | %s | replacement ready %.1f s |", instance, moved,
                    readyMs / 1000.0));
            log.add(String.format("%s: %.1f s", instance, readyMs / 1000.0));
            System.out.printf("[roll] %s: %s; replacement ready %.1f s after SIGTERM%n", instance, moved, readyMs / 1000.0);
        }
    }

    @Test
    void restartingEveryInstanceOneAtATimeFailsNoRequestAndLosesOrDoublesNothing() throws Exception {
        Map<String, String> env = ReplicatedStack.env();
        ReplicatedStack.awaitAllReady();
        long seed = new java.security.SecureRandom().nextLong();
        Instant start = Instant.now().minusSeconds(1);
        WebhookReceiver receiver = new WebhookReceiver(Ports.free(), 0.0, new java.util.Random(seed));
        receiver.start();
        FaultLoad load = new FaultLoad(env, new java.util.Random(seed + 1), PAUSE);
        Map<String, BigInteger> sellerBefore = FaultChecks.sellerBalances(env);
        List<String> paths = List.of("/hooks/roll");
        byte[] secret = new byte[32];
        ThreadLocalRandom.current().nextBytes(secret);
        Calls.Answer sub = load.calls.send("webhook.subscribe", "POST", "/v1/webhooks",
                JSON.writeValueAsString(Map.of("url", receiver.url(paths.get(0)), "events", FaultIT.SUBSCRIBED,
                        "secret", "whsec_" + Base64.getEncoder().encodeToString(secret), "description", "rolling restart")), Map.of());
        assertThat(sub.status()).as(sub.body()).isEqualTo(201);
        Instant subscribedAt = Instant.now();

        // MCP calls too: a tool of discovery-service that reads mandate-service (service to service, balanced)
        AtomicBoolean mcpRunning = new AtomicBoolean(true);
        List<String> mcpErrors = new CopyOnWriteArrayList<>();
        Runnable mcpWorker = () -> {
            int n = 0;
            while (mcpRunning.get()) {
                List<String> ids = List.copyOf(load.mandates.keySet());
                if (!ids.isEmpty()) {
                    String id = ids.get(n++ % ids.size());
                    String call = "{\"jsonrpc\":\"2.0\",\"id\":" + n + ",\"method\":\"tools/call\",\"params\":{\"name\":"
                            + "\"service_verify_mandate\",\"arguments\":{\"mandate_id\":\"" + id + "\"}}}";
                    Calls.Answer a = load.calls.send("mcp.verify_mandate", "POST", "/disco/mcp", call, Map.of());
                    if (a.status() == 200 && a.body().contains("\"isError\":true")) {
                        mcpErrors.add(a.body());
                    }
                }
                Calls.sleep(PAUSE.toMillis()); // pacing: as the other workers (a clock, no condition)
            }
        };
        List<Thread> workers = List.of(new Thread(load.mandateWorker(), "roll-mandate"), new Thread(load.invoiceWorker(), "roll-invoice"),
                new Thread(load.x402Worker(), "roll-x402"), new Thread(mcpWorker, "roll-mcp"));
        workers.forEach(Thread::start);
        Probe steady = new Probe(env, "steady");
        await("steady samples").atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(1))
                .until(() -> steady.anchoring.size() >= STEADY_SAMPLES && steady.settlement.size() >= STEADY_SAMPLES);
        steady.stop();
        System.out.printf("[roll] steady: anchoring p99 %d ms (n=%d), settlement p99 %d ms (n=%d)%n", p99(steady.anchoring),
                steady.anchoring.size(), p99(steady.settlement), steady.settlement.size());

        Probe rolling = new Probe(env, "rolling");
        int callsBefore = load.calls.calls().size();
        long rollStart = System.currentTimeMillis();
        List<String> log = new CopyOnWriteArrayList<>();
        for (String service : SERVICES) {
            roll(env, service, log);
        }
        long rollMs = System.currentTimeMillis() - rollStart;
        rolling.stop();
        load.stop();
        mcpRunning.set(false);
        for (Thread t : workers) {
            t.join(200_000);
        }

        List<Calls.Call> during = load.calls.calls().subList(callsBefore, load.calls.calls().size());
        List<Calls.Call> failed = load.calls.calls().stream().filter(c -> c.status() == 0 || c.status() >= 500).toList();

        FaultChecks checks = new FaultChecks(env, load, receiver, new Faults(ReplicatedStack.stateDir(), env, receiver,
                new java.util.Random(seed + 2)), start, subscribedAt, paths, sellerBefore);
        FaultChecks.Result[] last = new FaultChecks.Result[1];
        try {
            await("the invariants to hold after the roll").atMost(Duration.ofMinutes(3)).pollInSameThread()
                    .pollDelay(Duration.ZERO).pollInterval(Duration.ofSeconds(10)).until(() -> (last[0] = checks.run()).violations() == 0);
        } catch (ConditionTimeoutException e) {
            // the last check's violations are the result
        }
        receiver.stop();

        long steadyAnchor = p99(steady.anchoring);
        long steadySettle = p99(steady.settlement);
        long rollAnchor = p99(rolling.anchoring);
        long rollSettle = p99(rolling.settlement);
        String load0 = Files.readString(Path.of("/proc/loadavg")).trim();
        String report = String.format("""
                ## Rolling restart (--replicas %d), %s

                Every instance of every service restarted one at a time in %.0f s under load; %d client requests during the roll, %d failed (5xx or no answer) in the whole run.
                Anchoring (last signature -> both transitions anchored) p99: steady %d ms (n=%d), during the roll %d ms (n=%d).
                Settlement (payment mined -> SETTLED) p99: steady %d ms (n=%d), during the roll %d ms (n=%d).
                Restart of each instance (SIGTERM -> replacement ready): %s.
                Load average at the end: %s (/proc/loadavg; whatever else ran on the machine counts in it).
                """, ReplicatedStack.REPLICAS, Instant.now(), rollMs / 1000.0, during.size(), failed.size(), steadyAnchor,
                steady.anchoring.size(), rollAnchor, rolling.anchoring.size(), steadySettle, steady.settlement.size(), rollSettle,
                rolling.settlement.size(), String.join(", ", log), load0);
        System.out.println(report);
        Path out = RepoPaths.root().resolve("deploy/e2e/target/rolling-restart.md");
        Files.createDirectories(out.getParent());
        StringBuilder failures = new StringBuilder();
        failed.forEach(c -> failures.append(String.format("- failed request: %s at %s answered %d %s%n", c.op(),
                Instant.ofEpochMilli(c.startMs()), c.status(), c.error() == null ? "" : c.error())));
        rolling.failures.forEach(f -> failures.append("- failed probe flow: ").append(f).append('\n'));
        failures.append("\nSlowest probe samples (steady, then during the roll):\n");
        for (String kind : List.of("anchoring", "settlement")) {
            steady.slowest(kind, 3).forEach(l -> failures.append("- steady ").append(l).append('\n'));
            rolling.slowest(kind, 8).forEach(l -> failures.append("- roll ").append(l).append('\n'));
        }
        Files.writeString(out, report + "\n" + (last[0] == null ? "" : last[0].summary() + "\n" + last[0].details()) + "\n" + failures);

        assertThat(failed).as("failed client requests").isEmpty();
        assertThat(mcpErrors).as("MCP tool calls answered with a tool error").isEmpty();
        assertThat(steady.failures).as("failed probe flows (steady)").isEmpty();
        assertThat(rolling.failures).as("failed probe flows (during the roll)").isEmpty();
        assertThat(last[0].violations()).as("violations:\n" + last[0].details()).isZero();
        assertThat(rolling.anchoring).as("anchoring probes during the roll").isNotEmpty();
        assertThat(rolling.settlement).as("settlement probes during the roll").isNotEmpty();
        // 2x the steady p99; a steady p99 below 2 s counts as 2 s (a few samples on a shared machine)
        assertThat(rollAnchor).as("anchoring p99 during the roll").isLessThanOrEqualTo(2 * Math.max(steadyAnchor, 2000));
        assertThat(rollSettle).as("settlement p99 during the roll").isLessThanOrEqualTo(2 * Math.max(steadySettle, 2000));
    }
}
