package dev.agentpay.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.localstack.Ports;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.chain.UsdcInstaller;
import dev.agentpay.localstack.testing.TestKafka;
import io.restassured.path.json.JsonPath;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Issue 29: with two instances of every service ({@link ReplicatedStack}), the instance holding the work
 * of anchor-service (the signer's lease), settlement-watcher (base's chain lease) and webhook-dispatcher
 * (an instance that claims deliveries and holds half of its consumer group's partitions) is frozen (SIGSTOP,
 * as a long pause or a partition) and later resumed (SIGCONT), then killed (kill -9; the launcher restarts
 * it, in the background): the work moves to the other instance within 10 s (the lease, or the consumer
 * group's partitions), the effect happens, and the woken instance doubles nothing. Times go to
 * {@code target/failover-figures.md} ({@link FailoverFigures}; bench/FAULTS.md).
 */
@Order(-3) // first, on its own stack (ReplicatedStack), before the shared stack starts (LocalStackIT, Order 1): never two stacks at once
class FailoverIT {

    /** Work held by a frozen or killed instance moves to another within this (issue 29). */
    static final Duration MOVE_LIMIT = Duration.ofSeconds(10);
    /** ... and its effect (an anchor mined and recorded, a payment settled, a webhook received) is seen within this. */
    static final Duration EFFECT_LIMIT = Duration.ofSeconds(40);
    static Map<String, String> env;
    static StackDb db;

    @BeforeAll
    static void stack() throws Exception {
        env = ReplicatedStack.env();
        db = new StackDb(env);
        ReplicatedStack.awaitAllReady();
    }

    /** Killed instances are restarted by the launcher meanwhile; the next class finds the whole stack ready. */
    @AfterAll
    static void restarted() throws Exception {
        ReplicatedStack.awaitAllReady();
    }

    enum Fault { FREEZE, KILL }

    @Test
    void anchoringMovesWhenTheSignerIsFrozenOrKilledAndTheWokenInstanceAnchorsNothingTwice() throws Exception {
        MandateFlows flows = new MandateFlows(env.get("BASE_URL"), env.get("API_KEY"), env.get("SIGNING_SECRET"));
        EvmRpc chain = new EvmRpc(env.get("ANCHOR_RPC_URL"));
        for (Fault fault : Fault.values()) {
            String holder = holder("anchor", "anchor-service.signer");
            String instance = instanceOf(holder);
            long pid = ReplicatedStack.pid(instance);
            Set<String> members = members("anchor-service");
            long t0 = System.currentTimeMillis();
            signal(fault == Fault.FREEZE ? "STOP" : "KILL", pid);
            String id = flows.create();
            JsonNode m = flows.get(id);
            String sig = flows.signature(m);
            flows.sign(id, "proposer", sig);
            flows.sign(id, "counterparty", sig);
            await("the signer's lease moves off " + instance).atMost(left(t0)).pollInterval(Duration.ofMillis(100))
                    .until(() -> holderOrNull("anchor", "anchor-service.signer"), h -> h != null && !h.equals(holder));
            long movedMs = System.currentTimeMillis() - t0;
            long groupMs = groupMoved("anchor-service", members, t0);
            await("both transitions anchored").atMost(EFFECT_LIMIT).pollInterval(Duration.ofMillis(200))
                    .until(() -> anchored(flows.get(id)) == 2);
            long effectMs = System.currentTimeMillis() - t0;
            record("anchor-service", fault, String.format("signer lease %.1f s, mandate-events partitions %.1f s", movedMs / 1000.0,
                    groupMs / 1000.0), effectMs);
            String hash = flows.get(id).get("proto_mandate_hash").asText();
            if (fault == Fault.FREEZE) {
                signal("CONT", pid); // wakes with the old token: every effect it tries is fenced off
            }
            // the woken instance (or the survivor of the kill) anchors nothing again: one log per transition, held
            await("one MandateAnchored per transition after " + fault).during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(500)).until(() -> anchorLogs(chain, hash) == 2);
        }
    }

    @Test
    void settlementMovesWhenTheChainsWatcherIsFrozenOrKilledAndTheWokenInstancePublishesNothingTwice() throws Exception {
        String base = env.get("BASE_URL");
        String key = env.get("API_KEY");
        EvmRpc rpc = new EvmRpc(env.get("CHAIN_BASE_RPC_URL"));
        for (Fault fault : Fault.values()) {
            JsonPath invoice = given().baseUri(base).header("x-api-key", key).contentType("application/json")
                    .body("{\"amount\": 1.23, \"chain\": \"base\"}").post("/v1/invoices").then().statusCode(201).extract().jsonPath();
            String invoiceId = invoice.getString("data.id");
            String address = invoice.getString("data.paymentDetails.paymentAddress");
            String holder = holder("watcher", "settlement-watcher.chain.base");
            String instance = instanceOf(holder);
            long pid = ReplicatedStack.pid(instance);
            long t0 = System.currentTimeMillis();
            signal(fault == Fault.FREEZE ? "STOP" : "KILL", pid);
            String tx = UsdcInstaller.transfer(rpc, env.get("CHAIN_BASE_USDC_ADDRESS"), env.get("DEV_PAYER_ADDRESS"), address,
                    BigInteger.valueOf(1_230_000)).get("transactionHash").asText();
            await("base's lease moves off " + instance).atMost(left(t0)).pollInterval(Duration.ofMillis(100))
                    .until(() -> holderOrNull("watcher", "settlement-watcher.chain.base"), h -> h != null && !h.equals(holder));
            long movedMs = System.currentTimeMillis() - t0;
            await("the invoice settled").atMost(EFFECT_LIMIT).pollInterval(Duration.ofMillis(200)).until(() -> "SETTLED".equals(
                    given().baseUri(base).header("x-api-key", key).get("/v1/invoices/" + invoiceId).then().extract().path("data.status")));
            long effectMs = System.currentTimeMillis() - t0;
            record("settlement-watcher", fault, String.format("base's chain lease %.1f s", movedMs / 1000.0), effectMs);
            if (fault == Fault.FREEZE) {
                signal("CONT", pid);
            }
            // the woken instance (or the survivor of the kill) publishes the transfer no second time
            await("one detected transfer for " + tx + " after " + fault).during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(500)).until(() -> db.strings("watcher",
                            "select count(*) from outbox_event where type = 'chain.transfer.detected' and payload like ?",
                            "%" + tx.toLowerCase(Locale.ROOT) + "%").get(0).equals("1"));
        }
    }

    @Test
    void webhookDeliveryGoesOnWhenADispatcherIsFrozenOrKilledAndTheWokenInstanceSendsNothingTwice() throws Exception {
        WebhookReceiver receiver = new WebhookReceiver(Ports.free(), 0.0, new java.util.Random(1));
        receiver.start();
        try {
            byte[] secret = new byte[32];
            ThreadLocalRandom.current().nextBytes(secret);
            given().baseUri(env.get("BASE_URL")).header("x-api-key", env.get("API_KEY")).contentType("application/json")
                    .body(Map.of("url", receiver.url("/hooks/failover"), "events", List.of("mandate.proposed"),
                            "secret", "whsec_" + Base64.getEncoder().encodeToString(secret)))
                    .post("/v1/webhooks").then().statusCode(201);
            MandateFlows flows = new MandateFlows(env.get("BASE_URL"), env.get("API_KEY"), env.get("SIGNING_SECRET"));
            for (Fault fault : Fault.values()) {
                // either instance claims deliveries and holds half of the partitions: stop one, the other must carry on
                String instance = "webhook-dispatcher";
                ReplicatedStack.awaitReady(instance);
                long pid = ReplicatedStack.pid(instance);
                Set<String> members = members("webhook-dispatcher-mandate");
                int before = receiver.deliveries().size();
                long t0 = System.currentTimeMillis();
                signal(fault == Fault.FREEZE ? "STOP" : "KILL", pid);
                List<String> ids = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    ids.add(flows.create());
                }
                long groupMs = groupMoved("webhook-dispatcher-mandate", members, t0);
                await("deliveries of the 3 new mandates").atMost(EFFECT_LIMIT).pollInterval(Duration.ofMillis(100))
                        .until(() -> receiver.deliveries().size() >= before + 3);
                long effectMs = System.currentTimeMillis() - t0;
                record("webhook-dispatcher", fault, String.format("mandate-events partitions %.1f s (deliveries: active-active)",
                        groupMs / 1000.0), effectMs);
                if (fault == Fault.FREEZE) {
                    signal("CONT", pid);
                }
                // nothing was claimed by the stopped instance: each event is delivered exactly once
                await("no second delivery after " + fault).during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(15))
                        .pollInterval(Duration.ofMillis(500)).until(() -> receiver.deliveries().size() == before + 3
                                && receiver.deliveries().stream().map(WebhookReceiver.Delivery::webhookId).distinct().count()
                                        == receiver.deliveries().size());
            }
        } finally {
            receiver.stop();
        }
    }

    /** What is left of {@link #MOVE_LIMIT} since the fault at {@code t0} (at least a poll's worth). */
    static Duration left(long t0) {
        long ms = MOVE_LIMIT.toMillis() - (System.currentTimeMillis() - t0);
        return Duration.ofMillis(Math.max(ms, 150));
    }

    /** Instances this class froze and has not resumed yet: resumed after each test, whatever happened. */
    static final List<Long> FROZEN = new java.util.concurrent.CopyOnWriteArrayList<>();

    @AfterEach
    void resumeFrozen() throws Exception {
        for (Long pid : FROZEN) {
            new ProcessBuilder("kill", "-CONT", Long.toString(pid)).start().waitFor();
            FROZEN.remove(pid);
        }
    }

    private static void record(String service, Fault fault, String moved, long effectMs) {
        FailoverFigures.row(String.format("| %s | %s | %s | %.1f s |", service, fault == Fault.FREEZE ? "SIGSTOP (frozen)" : "kill -9",
                moved, effectMs / 1000.0));
    }

    /** The topic each consumer group of the tests reads (the service's application.properties). */
    static final Map<String, String> TOPICS = Map.of("mandate-service.anchor-receipts", "anchor-receipts",
            "invoice-service", "chain-transfers", "settlement-watcher-deposits", "invoice-events", "anchor-service", "mandate-events",
            "discovery-trust-mandates", "mandate-events", "webhook-dispatcher-mandate", "mandate-events",
            "anchor-service-8453", "mandate-events");

    static Set<String> members(String group) {
        return members(env, group);
    }

    /** The consumer ids in a group once it is stable with one member per instance. */
    static Set<String> members(Map<String, String> env, String group) {
        var groups = TestKafka.companion(env.get("KAFKA_BOOTSTRAP_SERVERS")).consumerGroups();
        return await("stable members of " + group + ", one per instance").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .ignoreExceptions().until(() -> groups.describe(group), g -> "STABLE".equals(g.groupState().name())
                        && g.members().size() == ReplicatedStack.REPLICAS)
                .members().stream().map(MemberDescription::consumerId).collect(Collectors.toSet());
    }

    static long groupMoved(String group, Set<String> before, long t0) {
        return groupMoved(env, group, before, t0);
    }

    /**
     * Awaits (within {@link #MOVE_LIMIT} of {@code t0}) the group stable with every partition assigned and one of its
     * members before the fault gone (the stopped instance's); returns the milliseconds since {@code t0}.
     */
    static long groupMoved(Map<String, String> env, String group, Set<String> before, long t0) {
        var kafka = TestKafka.companion(env.get("KAFKA_BOOTSTRAP_SERVERS"));
        String topic = TOPICS.get(group);
        int partitions = kafka.topics().describe(topic).get(topic).partitions().size();
        await("the partitions of " + group + " move off the stopped instance").atMost(left(t0))
                .pollInterval(Duration.ofMillis(100)).ignoreExceptions().until(() -> kafka.consumerGroups().describe(group),
                        (ConsumerGroupDescription g) -> "STABLE".equals(g.groupState().name())
                                && g.members().stream().mapToInt(m -> m.assignment().topicPartitions().size()).sum() == partitions
                                && g.members().stream().filter(m -> before.contains(m.consumerId())).count() == before.size() - 1);
        return System.currentTimeMillis() - t0;
    }

    /** The holder of a lease named {@code <database>:<lease>}, or null when none holds it. */
    static String holderOrNull(Map<String, String> env, String spec) throws Exception {
        int colon = spec.indexOf(':');
        List<String> h = new StackDb(env).strings(spec.substring(0, colon),
                "select holder from platform_lease where name = ? and expires_at > now()", spec.substring(colon + 1));
        return h.isEmpty() ? null : h.get(0);
    }

    private static int anchored(JsonNode mandate) {
        int n = 0;
        JsonNode ts = mandate.get("transitions");
        for (int i = 1; i < ts.size(); i++) {
            if (!ts.get(i).get("anchor_tx_hash").isNull()) {
                n++;
            }
        }
        return n;
    }

    private static int anchorLogs(EvmRpc chain, String mandateHash) {
        var filter = new java.util.LinkedHashMap<String, Object>();
        filter.put("address", env.get("ANCHOR_CONTRACT_ADDRESS"));
        filter.put("fromBlock", "0x0");
        filter.put("toBlock", "latest");
        filter.put("topics", java.util.Arrays.asList(null, mandateHash));
        return chain.call("eth_getLogs", filter).size();
    }

    /** The current holder of a lease (waits until one holds it). */
    private static String holder(String database, String lease) {
        return await("a holder of " + lease).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .until(() -> holderOrNull(database, lease), h -> h != null);
    }

    private static String holderOrNull(String database, String lease) throws Exception {
        List<String> h = db.strings(database, "select holder from platform_lease where name = ? and expires_at > now()", lease);
        return h.isEmpty() ? null : h.get(0);
    }

    /** A holder id is {@code <HOSTNAME>-<8 hex>}; the launcher sets HOSTNAME to the instance's name. */
    static String instanceOf(String holder) {
        return holder.substring(0, holder.lastIndexOf('-'));
    }

    static void signal(String sig, long pid) throws Exception {
        if (sig.equals("STOP")) {
            FROZEN.add(pid);
        } else if (sig.equals("CONT")) {
            FROZEN.remove(Long.valueOf(pid));
        }
        Process p = new ProcessBuilder("kill", "-" + sig, Long.toString(pid)).redirectErrorStream(true).start();
        assertThat(p.waitFor()).as("kill -" + sig + " " + pid).isZero();
    }
}
