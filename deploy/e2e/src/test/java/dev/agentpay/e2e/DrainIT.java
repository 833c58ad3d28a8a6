package dev.agentpay.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.localstack.testing.TestKafka;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Issue 29, the drain on SIGTERM, seen from outside one instance ({@link ReplicatedStack}: two of each
 * service): mandate-service's second instance gets SIGTERM while requests are sent to it directly. Its
 * readiness goes DOWN first while it still serves (liveness UP, every request answered), for as long as a
 * router needs to notice; every request sent before and during that time is answered (none cut, no 5xx);
 * and its Kafka consumer hands its partitions over at the start of the drain: it leaves its group before the
 * instance exits (the partitions used to wait for the exit, 5-9 s under load, and the records behind them
 * with them), and the other instance holds every partition well before a session timeout (6 s) would have
 * let them go. The launcher then starts it again (as Kubernetes would).
 */
@Order(-2) // between FailoverIT and RollingRestartIT, on their stack
class DrainIT {

    /** The replicated stack's last user when RollingRestartIT does not run: stop it before the shared stack starts. */
    @AfterAll
    static void stopUnlessRolling() throws InterruptedException {
        if (!RollingRestartIT.ENABLED) {
            ReplicatedStack.stop();
        }
    }

    static final String INSTANCE = "mandate-service-2";
    static final String GROUP = "mandate-service.anchor-receipts";
    /** The router's lag this test grants: it keeps sending this long after it saw readiness DOWN (the local gateway checks every 0.5 s). */
    static final Duration ROUTER_LAG = Duration.ofMillis(600);

    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void sigtermTakesReadinessDownFirstFinishesRequestsAndLeavesTheConsumerGroup() throws Exception {
        Map<String, String> env = ReplicatedStack.env();
        ReplicatedStack.awaitAllReady();
        String url = env.get("MANDATE_SERVICE_URLS").split(",")[1];
        Calls calls = new Calls(url, env.get("API_KEY"));
        var groups = TestKafka.companion(env.get("KAFKA_BOOTSTRAP_SERVERS")).consumerGroups();
        // both instances are in the group, each with partitions of anchor-receipts
        ConsumerGroupDescription before = await("two stable members of " + GROUP).atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .until(() -> groups.describe(GROUP), g -> "STABLE".equals(g.groupState().name()) && g.members().size() == 2
                        && g.members().stream().allMatch(m -> !m.assignment().topicPartitions().isEmpty()));
        Set<String> membersBefore = memberIds(before);
        int partitions = before.members().stream().mapToInt(m -> m.assignment().topicPartitions().size()).sum();
        String id = create(calls);
        assertThat(id).as("a mandate created on " + INSTANCE).isNotNull();

        // the load a router keeps sending until it notices readiness DOWN: creates and reads, directly to the instance
        AtomicBoolean sending = new AtomicBoolean(true);
        List<Thread> senders = List.of(
                new Thread(() -> {
                    while (sending.get()) {
                        create(calls);
                        Calls.sleep(200); // pacing well under the per-address rate limit (a clock, no condition)
                    }
                }, "drain-create"),
                new Thread(() -> {
                    while (sending.get()) {
                        calls.send("drain.get", "GET", "/v1/mandates/" + id, null, Map.of());
                        Calls.sleep(200);
                    }
                }, "drain-get"));
        senders.forEach(Thread::start);
        await("requests answered before the SIGTERM").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
                .until(() -> calls.calls().stream().filter(c -> c.status() / 100 == 2).count() >= 4);

        long pid = ReplicatedStack.pid(INSTANCE);
        ProcessHandle process = ProcessHandle.of(pid).orElseThrow();
        java.nio.file.Path log = ReplicatedStack.stateDir().resolve("logs").resolve(INSTANCE + ".log");
        long logOffset = java.nio.file.Files.size(log); // the launcher appends: what follows is this shutdown (and the restart)
        long t0 = System.currentTimeMillis();
        FailoverIT.signal("TERM", pid);
        // the consumer hands its partitions over at the start of the drain (commons Consumers.handOver), not at the exit:
        // watch for the moment the group has no member of the stopping instance
        AtomicLong leftMs = new AtomicLong(-1);
        Thread watcher = new Thread(() -> {
            while (leftMs.get() < 0 && System.currentTimeMillis() - t0 < 40_000) {
                try {
                    Set<String> now = memberIds(groups.describe(GROUP));
                    if (now.size() == membersBefore.size() - 1 && membersBefore.containsAll(now)) {
                        leftMs.set(System.currentTimeMillis() - t0);
                    }
                } catch (RuntimeException e) {
                    // a describe during the rebalance: asked again at the next tick
                }
                Calls.sleep(50); // the watch's tick (a clock, no condition)
            }
        }, "drain-group-watch");
        watcher.start();
        // readiness first: DOWN while the instance is alive (liveness UP) and still serving
        await(INSTANCE + " readiness DOWN").atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(50)).ignoreExceptions()
                .until(() -> status(url + "/q/health/ready") == 503);
        long readyDownMs = System.currentTimeMillis() - t0;
        int live = status(url + "/q/health/live");
        Calls.sleep(ROUTER_LAG.toMillis()); // the router's lag: requests keep coming this long (a clock, the thing being granted)
        sending.set(false);
        for (Thread t : senders) {
            t.join(40_000);
        }
        long lastSentMs = System.currentTimeMillis() - t0;
        AtomicLong exitMs = new AtomicLong(-1);
        process.onExit().thenRun(() -> exitMs.set(System.currentTimeMillis() - t0));
        await(INSTANCE + " exits after its drain").atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofMillis(20))
                .until(() -> exitMs.get() >= 0);
        watcher.join(45_000);
        // the consumer left its group at the start of the drain: by its exit the group has no member of the stopped instance
        ConsumerGroupDescription atExit = groups.describe(GROUP);
        long checkedMs = System.currentTimeMillis() - t0;
        Set<String> membersAtExit = memberIds(atExit);
        // ... and the other instance holds every partition at once (no session timeout to wait for)
        ConsumerGroupDescription moved = await("every partition of " + GROUP + " on the other instance").atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(100)).ignoreExceptions()
                .until(() -> groups.describe(GROUP), g -> "STABLE".equals(g.groupState().name()) && g.members().size() == 1
                        && g.members().iterator().next().assignment().topicPartitions().size() == partitions);
        long movedMs = System.currentTimeMillis() - t0;
        String shutdownLog;
        try (var in = java.nio.file.Files.newInputStream(log)) {
            in.skipNBytes(logOffset);
            shutdownLog = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }

        String figure = String.format("| %s | SIGTERM (drain) | readiness DOWN %.2f s, group member gone %.1f s, exited %.1f s (checked again %.1f s),"
                        + " partitions on the other instance %.1f s | %d requests sent to it, %d failed |",
                INSTANCE, readyDownMs / 1000.0, leftMs.get() / 1000.0, exitMs.get() / 1000.0, checkedMs / 1000.0, movedMs / 1000.0,
                calls.calls().size(),
                calls.calls().stream().filter(c -> c.status() == 0 || c.status() >= 500).count());
        FailoverFigures.row(figure);

        assertThat(live).as("liveness while draining (draining is not dead)").isEqualTo(200);
        assertThat(calls.calls()).as("requests sent to the draining instance until %d ms after SIGTERM (readiness DOWN at %d ms)",
                lastSentMs, readyDownMs).allSatisfy(c -> assertThat(c.status()).as(c.toString()).isBetween(200, 299));
        assertThat(leftMs.get()).as("ms after SIGTERM when %s's member left %s (it exited at %d ms)", INSTANCE, GROUP, exitMs.get())
                .isNotNegative().isLessThan(exitMs.get());
        assertThat(membersAtExit).as("members of %s when %s exited (%d ms after SIGTERM)", GROUP, INSTANCE, exitMs.get())
                .hasSize(1).isSubsetOf(membersBefore);
        assertThat(moved.members().iterator().next().consumerId()).isIn(membersBefore);
        // no scheduled job starts once it is leaving: the scheduler is paused at the pre-shutdown event, first of the
        // drains (commons loop.SchedulerDrain); jobs used to fire on until the exit, failing with "Pool closed"
        assertThat(shutdownLog).as("%s's log from the SIGTERM on", INSTANCE).contains("shutdown: scheduled jobs paused");
        assertThat(shutdownLog.lines().filter(l -> l.contains("Pool closed") && (l.contains("Job]") || l.contains("charge recovery") || l.contains("for trigger"))))
                .as("scheduled jobs' runs that failed on a closed pool").isEmpty();

        // the launcher starts it again, as Kubernetes would; the next test finds the whole stack ready
        await(INSTANCE + " restarted and ready").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500)).ignoreExceptions()
                .until(() -> ReplicatedStack.pid(INSTANCE) != pid && status(url + "/q/health/ready") == 200);
    }

    private static Set<String> memberIds(ConsumerGroupDescription g) {
        return g.members().stream().map(MemberDescription::consumerId).collect(Collectors.toSet());
    }

    private int status(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static String create(Calls calls) {
        String body = "{\"proposer\":\"agent-drain-a\",\"counterparty\":\"agent-drain-b\",\"scope\":\"drain check\","
                + "\"terms\":{\"amount\":3,\"currency\":\"USDC\"},\"expiry\":\"" + Instant.now().plus(2, ChronoUnit.DAYS) + "\"}";
        Calls.Answer a = calls.send("drain.create", "POST", "/v1/mandates", body, Map.of("Idempotency-Key", UUID.randomUUID().toString()));
        if (!a.ok()) {
            return null;
        }
        int i = a.body().indexOf("\"mandate_id\":\"");
        return i < 0 ? null : a.body().substring(i + 14, a.body().indexOf('"', i + 14));
    }
}
