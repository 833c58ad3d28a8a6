package dev.agentpay.e2e;

import static org.awaitility.Awaitility.await;

import dev.agentpay.localstack.chain.EvmRpc;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.awaitility.core.ConditionTimeoutException;

/**
 * The faults: {@code kill -9} of a supervised process (found through the launcher's
 * {@code pids/<name>.pid}) and the wait for the launcher's restart; 1-3 block reorgs with
 * {@code evm_snapshot}/{@code evm_revert}; the webhook receiver taken down. Each injected fault is
 * recorded with the moment it began and the moment its target served again.
 */
final class Faults {

    /** One injected fault; {@code recoveredMs} is 0 until the target serves again. */
    static final class Fault {
        final String kind;
        final String target;
        final long startMs;
        volatile long recoveredMs;
        final String detail;

        Fault(String kind, String target, long startMs, String detail) {
            this.kind = kind;
            this.target = target;
            this.startMs = startMs;
            this.detail = detail;
        }
    }

    /** After a dependency serves again, clients may still meet its effects this long (pools reconnecting). */
    static final long GRACE_MS = 15_000;

    /** How long a killed part may take to serve again (286 s seen under a load average of 60). */
    static final Duration RECOVERY_WAIT = Duration.ofSeconds(300);

    /** One round of the schedule: every service, the broker, PostgreSQL, a payment chain, the facilitator, reorgs, the receiver. */
    static final List<String> ROUND = List.of("kill:mandate-service", "reorg:skale", "kill:invoice-service", "receiver-down",
            "kill:settlement-watcher", "kill:kafka", "kill:anchor-service", "reorg:polygon", "kill:discovery-service",
            "kill:anvil-arbitrum", "kill:webhook-dispatcher", "reorg:arbitrum", "kill:postgres", "kill:x402-facilitator",
            "kill-mid-release:settlement-watcher", "kill-mid-resolve:mandate-service", "kill-mid-sweep:settlement-watcher");

    /**
     * {@code kill -9} of settlement-watcher while a sweep is in flight: the fault waits (up to
     * {@link #SWEEP_WAIT}) until {@code GET /admin/sweeps} shows a sweep recorded as SENT (signed and
     * broadcast, not yet confirmed), then kills the watcher.
     */
    static final String SWEEP_KILL = ROUND.get(ROUND.size() - 1);
    static final Duration SWEEP_WAIT = Duration.ofSeconds(90);

    /**
     * {@code kill -9} of settlement-watcher while an escrow release is in flight (issue 30): the fault waits (up to
     * {@link #SWEEP_WAIT}) for an {@code escrow.release} command the watcher's ledger records SENT (signed, broadcast, not
     * yet at depth), then kills it.
     */
    static final String RELEASE_KILL = "kill-mid-release:settlement-watcher";
    /**
     * {@code kill -9} of mandate-service in the middle of a dispute's resolution (issue 30): the fault waits for an
     * {@code escrow.resolve} command mandate-service has sent and not yet seen done on chain, then kills it.
     */
    static final String RESOLVE_KILL = "kill-mid-resolve:mandate-service";

    /** The escrow commands in flight when their service was killed: each must end done, its effect once. */
    final List<String> escrowCommandsHit = new CopyOnWriteArrayList<>();

    /** The sweeps that were in flight (SENT) when the watcher was killed: each must end CONFIRMED, once. */
    final List<String> sweepsHit = new CopyOnWriteArrayList<>();

    final List<Fault> injected = new CopyOnWriteArrayList<>();
    private final Path pids;
    private final Map<String, String> env;
    private final WebhookReceiver receiver;
    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final java.util.Random random;

    Faults(Path stateDir, Map<String, String> env, WebhookReceiver receiver, java.util.Random random) {
        this.pids = stateDir.resolve("pids");
        this.env = env;
        this.receiver = receiver;
        this.random = random;
    }

    /** The process a fault spec kills, or null. */
    static String killTarget(String spec) {
        int colon = spec.indexOf(':');
        return spec.startsWith("kill") && colon > 0 ? spec.substring(colon + 1) : null;
    }

    /**
     * The process a fault needs running before it can be injected: the one a kill stops, or the chain's node a reorg
     * rewinds. When the schedule falls behind (the long form at load 40-60), "kill:anvil-arbitrum" and "reorg:arbitrum"
     * come a second apart, and a reorg sent to a node still restarting fails to inject (connection refused).
     */
    static String neededProcess(String spec) {
        return spec.startsWith("reorg:") ? "anvil-" + spec.substring("reorg:".length()) : killTarget(spec);
    }

    /** Injects one fault; returns once it is in place (a kill: the process is gone), not when it healed. */
    Fault inject(String spec) throws Exception {
        if (spec.startsWith("kill:")) {
            return kill(spec.substring(5), null);
        }
        if (spec.equals(SWEEP_KILL)) {
            return killMidSweep();
        }
        if (spec.equals(RELEASE_KILL)) {
            return killWhileInFlight("settlement-watcher", "watcher", "select command_id from escrow_command where type = 'escrow.release'"
                    + " and state = 'SENT' order by sent_at desc limit 1", "escrow release");
        }
        if (spec.equals(RESOLVE_KILL)) {
            return killWhileInFlight("mandate-service", "mandate", "select command_id::text from mandate_escrow_command where"
                    + " type = 'escrow.resolve' and status = 'sent' order by created_at desc limit 1", "escrow resolve");
        }
        if (spec.startsWith("reorg:")) {
            return reorg(spec.substring(6), 1 + random.nextInt(3));
        }
        if (spec.equals("receiver-down")) {
            Fault f = new Fault("receiver-down", "webhook receiver", System.currentTimeMillis(), "3 s");
            receiver.stop();
            injected.add(f);
            background(() -> {
                Calls.sleep(3000); // the fault's length: the receiver stays down 3 s (a clock, no condition)
                try {
                    receiver.start();
                    f.recoveredMs = System.currentTimeMillis();
                } catch (Exception e) {
                    System.out.println("[faults] receiver restart failed: " + e);
                }
            });
            return f;
        }
        throw new IllegalArgumentException(spec);
    }

    private long pid(String name) throws Exception {
        return Long.parseLong(Files.readString(pids.resolve(name + ".pid")).trim());
    }

    /** Waits for a sweep in flight (SENT in the watcher's ledger), then kills the watcher. */
    private Fault killMidSweep() throws Exception {
        Optional<com.fasterxml.jackson.databind.JsonNode> sent;
        try {
            sent = await("a sweep in flight").atMost(SWEEP_WAIT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(50))
                    .ignoreExceptionsInstanceOf(java.io.IOException.class) // the watcher is not answering yet (refused, timed out: any IOException)
                    .until(this::sweepInFlight, Optional::isPresent);
        } catch (ConditionTimeoutException e) {
            sent = Optional.empty();
        }
        if (sent.isPresent()) {
            var sweep = sent.get();
            String what = "sweep " + sweep.path("id").asText() + " on " + sweep.path("chain").asText() + " (" + sweep.path("txHash").asText()
                    + ") in flight";
            Fault f = kill("settlement-watcher", what);
            sweepsHit.add(sweep.path("id").asText());
            return f;
        }
        // none seen (or the watcher is still restarting): kill it once it runs again
        try {
            await("settlement-watcher running").atMost(RECOVERY_WAIT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(200))
                    .until(() -> ProcessHandle.of(pid("settlement-watcher")).map(ProcessHandle::isAlive).orElse(false));
        } catch (ConditionTimeoutException e) {
            // kill() says that it is not running
        }
        return kill("settlement-watcher", "no sweep seen in flight within " + SWEEP_WAIT.toSeconds() + " s");
    }

    /**
     * Waits (up to {@link #SWEEP_WAIT}, polling the service's own database every 20 ms) until {@code sql} finds a command
     * in flight, then kills {@code name}; without one in that time, kills it anyway and says so.
     */
    private Fault killWhileInFlight(String name, String database, String sql, String what) throws Exception {
        StackDb db = new StackDb(env);
        Optional<String> hit;
        try {
            hit = await("an " + what + " in flight").atMost(SWEEP_WAIT).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20))
                    .ignoreExceptionsInstanceOf(java.sql.SQLException.class) // the database restarting after its own kill
                    .until(() -> db.strings(database, sql).stream().findFirst(), Optional::isPresent);
        } catch (ConditionTimeoutException e) {
            hit = Optional.empty();
        }
        if (hit.isPresent()) {
            escrowCommandsHit.add(hit.get());
            return kill(name, what + " " + hit.get() + " in flight");
        }
        return kill(name, "no " + what + " seen in flight within " + SWEEP_WAIT.toSeconds() + " s");
    }

    /** A sweep the watcher's ledger shows SENT (signed and broadcast, not yet confirmed), if any. */
    private Optional<com.fasterxml.jackson.databind.JsonNode> sweepInFlight() throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(env.get("SETTLEMENT_WATCHER_URL") + "/admin/sweeps?limit=20"))
                .header("x-admin-key", env.get("ADMIN_API_KEY")).timeout(Duration.ofSeconds(3)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
            for (var sweep : JSON.readTree(r.body()).path("data").path("sweeps")) {
                if ("SENT".equals(sweep.path("state").asText())) {
                    return Optional.of(sweep);
                }
            }
        }
        return Optional.empty();
    }

    private Fault kill(String name, String why) throws Exception {
        long pid = pid(name);
        ProcessHandle h = ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException(name + " pid " + pid + " not running"));
        List<ProcessHandle> children = h.descendants().toList();
        Fault f = new Fault("kill -9", name, System.currentTimeMillis(), "pid " + pid + (why == null ? "" : ", " + why));
        h.destroyForcibly(); // SIGKILL
        children.forEach(ProcessHandle::destroyForcibly);
        injected.add(f);
        h.onExit().get(10, java.util.concurrent.TimeUnit.SECONDS);
        background(() -> awaitRecovery(f, name, pid));
        return f;
    }

    private void awaitRecovery(Fault f, String name, long oldPid) {
        try {
            await(name + " serving again").atMost(RECOVERY_WAIT).pollInterval(Duration.ofMillis(250))
                    .ignoreExceptions() // not yet: no pid file, connection refused, ...
                    .until(() -> pid(name) != oldPid && serves(name));
            f.recoveredMs = System.currentTimeMillis();
            System.out.printf("[faults] %s back after %.1f s%n", name, (f.recoveredMs - f.startMs) / 1000.0);
        } catch (ConditionTimeoutException e) {
            System.out.println("[faults] " + name + " did not come back within " + RECOVERY_WAIT.toSeconds() + " s");
        }
    }

    /** Whether the restarted part answers as it should. */
    boolean serves(String name) throws Exception {
        if (name.endsWith("-service") || name.equals("settlement-watcher") || name.equals("webhook-dispatcher")) {
            return ok(env.get(name.toUpperCase(Locale.ROOT).replace('-', '_') + "_URL") + "/q/health/ready");
        }
        if (name.equals("x402-facilitator")) {
            return ok(env.get("X402_FACILITATOR_URL") + "/supported");
        }
        if (name.startsWith("anvil-")) {
            new EvmRpc(rpcUrl(name.substring(6))).blockNumber();
            return true;
        }
        if (name.equals("postgres")) {
            try (var c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + env.get("POSTGRES_PORT") + "/postgres",
                    dev.agentpay.localstack.PostgresServer.USER, dev.agentpay.localstack.PostgresServer.PASSWORD)) {
                return c.isValid(2);
            }
        }
        if (name.equals("kafka")) {
            var p = new java.util.Properties();
            p.put("bootstrap.servers", env.get("KAFKA_BOOTSTRAP_SERVERS"));
            p.put("request.timeout.ms", "3000");
            p.put("default.api.timeout.ms", "3000");
            try (var admin = org.apache.kafka.clients.admin.Admin.create(p)) {
                return !admin.describeCluster().nodes().get(4, java.util.concurrent.TimeUnit.SECONDS).isEmpty();
            }
        }
        throw new IllegalArgumentException(name);
    }

    private boolean ok(String url) throws Exception {
        HttpResponse<Void> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(3)).GET().build(),
                HttpResponse.BodyHandlers.discarding());
        return r.statusCode() == 200;
    }

    String rpcUrl(String chain) {
        return chain.equals("anchor") ? env.get("ANCHOR_RPC_URL") : env.get("CHAIN_" + chain.toUpperCase(Locale.ROOT) + "_RPC_URL");
    }

    /**
     * A reorg of {@code depth} blocks: snapshot, let the chain mine {@code depth} blocks (one a second)
     * with whatever payments arrive, then revert to the snapshot so those blocks and their transfers
     * are replaced by new, different blocks.
     */
    private Fault reorg(String chain, int depth) throws Exception {
        EvmRpc rpc = new EvmRpc(rpcUrl(chain));
        String snap = rpc.snapshot();
        long from = rpc.blockNumber();
        try {
            await(depth + " blocks on " + chain).atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100))
                    .until(() -> rpc.blockNumber() >= from + depth);
        } catch (ConditionTimeoutException e) {
            // a shallower reorg then: the detail says how many blocks
        }
        long to = rpc.blockNumber();
        Fault f = new Fault("reorg", "anvil-" + chain, System.currentTimeMillis(), (to - from) + " blocks (" + (from + 1) + ".." + to + ")");
        if (!rpc.revert(snap)) {
            throw new IllegalStateException("evm_revert refused on " + chain);
        }
        f.recoveredMs = System.currentTimeMillis();
        injected.add(f);
        return f;
    }

    private static void background(Runnable r) {
        Thread t = new Thread(r, "fault-recovery");
        t.setDaemon(true);
        t.start();
    }

    /** Waits until every killed part serves again. */
    void awaitAllRecovered(Duration timeout) {
        try {
            await("every fault healed").atMost(timeout).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(500))
                    .until(() -> injected.stream().allMatch(f -> f.recoveredMs > 0));
        } catch (ConditionTimeoutException e) {
            // the report shows which part did not serve again
        }
    }

    /** Whether a moment lies in a fault's window (from injection until it served again, plus the grace). */
    boolean inWindow(long startMs, long endMs) {
        for (Fault f : injected) {
            if (f.kind.equals("reorg") || f.kind.equals("receiver-down")) {
                continue; // no request of the load depends on these: a 5xx there would be a bug
            }
            long end = (f.recoveredMs == 0 ? Long.MAX_VALUE : f.recoveredMs + GRACE_MS);
            if (endMs >= f.startMs && startMs <= end) {
                return true;
            }
        }
        return false;
    }
}
