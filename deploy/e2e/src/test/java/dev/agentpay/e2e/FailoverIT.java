package dev.agentpay.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.localstack.Ports;
import dev.agentpay.localstack.RepoPaths;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.chain.UsdcInstaller;
import io.restassured.path.json.JsonPath;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Issue 29: with two instances of every service ({@link ReplicatedStack}), the instance holding the work
 * of anchor-service (the signer's lease), settlement-watcher (base's chain lease) and webhook-dispatcher
 * (an instance that would claim deliveries) is frozen (SIGSTOP, as a long pause or a partition) and later
 * resumed (SIGCONT), then killed (kill -9, the launcher restarts it): the work moves to the other instance
 * within 10 s, the effect happens, and the woken instance doubles nothing. Times to resume go to
 * {@code target/failover-figures.md} (bench/FAULTS.md).
 */
@Order(91) // after FaultIT; its own stack
class FailoverIT {

    static final Duration MOVE_LIMIT = Duration.ofSeconds(10);
    static final Duration EFFECT_LIMIT = Duration.ofSeconds(40);
    static Map<String, String> env;
    static StackDb db;
    static final List<String> FIGURES = new ArrayList<>();
    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @BeforeAll
    static void stack() throws Exception {
        env = ReplicatedStack.env();
        db = new StackDb(env);
    }

    @AfterAll
    static void figures() throws Exception {
        Path out = RepoPaths.root().resolve("deploy/e2e/target/failover-figures.md");
        Files.createDirectories(out.getParent());
        String load = Files.readString(Path.of("/proc/loadavg")).trim();
        StringBuilder sb = new StringBuilder("| service | fault | work moved to the other instance | effect seen |\n|---|---|---|---|\n");
        FIGURES.forEach(f -> sb.append(f).append('\n'));
        sb.append("\nload average at the end: ").append(load).append(" (shared machine, not a quiet run)\n");
        Files.writeString(out, sb.toString());
        System.out.println(sb);
    }

    enum Fault { FREEZE, KILL }

    @Test
    void anchoringMovesWhenTheSignerIsFrozenOrKilledAndTheWokenInstanceAnchorsNothingTwice() throws Exception {
        MandateFlows flows = new MandateFlows(env.get("BASE_URL"), env.get("API_KEY"), env.get("SIGNING_SECRET"));
        for (Fault fault : Fault.values()) {
            String holder = holder("anchor", "anchor-service.signer");
            String instance = instanceOf(holder);
            long pid = ReplicatedStack.pid(instance);
            long t0 = System.currentTimeMillis();
            signal(fault == Fault.FREEZE ? "STOP" : "KILL", pid);
            String id = flows.create();
            JsonNode m = flows.get(id);
            String sig = flows.signature(m);
            flows.sign(id, "proposer", sig);
            flows.sign(id, "counterparty", sig);
            String moved = await("the signer's lease moves off " + instance).atMost(MOVE_LIMIT).pollInterval(Duration.ofMillis(100))
                    .until(() -> holderOrNull("anchor", "anchor-service.signer"), h -> h != null && !h.equals(holder));
            long movedMs = System.currentTimeMillis() - t0;
            await("both transitions anchored").atMost(EFFECT_LIMIT).pollInterval(Duration.ofMillis(200))
                    .until(() -> anchored(flows.get(id)) == 2);
            long effectMs = System.currentTimeMillis() - t0;
            record("anchor-service", fault, movedMs, effectMs);
            String hash = flows.get(id).get("proto_mandate_hash").asText();
            if (fault == Fault.FREEZE) {
                signal("CONT", pid);
            } else {
                awaitRestarted(instance, pid, "ANCHOR_SERVICE_URLS");
            }
            // the woken (or restarted) instance anchors nothing again: one log per transition, held
            EvmRpc chain = new EvmRpc(env.get("ANCHOR_RPC_URL"));
            await("one MandateAnchored per transition after " + fault).during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(20))
                    .pollInterval(Duration.ofMillis(500)).until(() -> anchorLogs(chain, hash) == 2);
            assertThat(moved).as("new holder").isNotEqualTo(holder);
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
            await("base's lease moves off " + instance).atMost(MOVE_LIMIT).pollInterval(Duration.ofMillis(100))
                    .until(() -> holderOrNull("watcher", "settlement-watcher.chain.base"), h -> h != null && !h.equals(holder));
            long movedMs = System.currentTimeMillis() - t0;
            await("the invoice settled").atMost(EFFECT_LIMIT).pollInterval(Duration.ofMillis(200)).until(() -> "SETTLED".equals(
                    given().baseUri(base).header("x-api-key", key).get("/v1/invoices/" + invoiceId).then().extract().path("data.status")));
            long effectMs = System.currentTimeMillis() - t0;
            record("settlement-watcher", fault, movedMs, effectMs);
            if (fault == Fault.FREEZE) {
                signal("CONT", pid);
            } else {
                awaitRestarted(instance, pid, "SETTLEMENT_WATCHER_URLS");
            }
            // the woken (or restarted) instance publishes the transfer no second time
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
                String instance = "webhook-dispatcher"; // either instance claims deliveries: stop one, the other must carry on
                long pid = ReplicatedStack.pid(instance);
                int before = receiver.deliveries().size();
                long t0 = System.currentTimeMillis();
                signal(fault == Fault.FREEZE ? "STOP" : "KILL", pid);
                List<String> ids = new ArrayList<>();
                for (int i = 0; i < 3; i++) {
                    ids.add(flows.create());
                }
                await("deliveries of the 3 new mandates").atMost(MOVE_LIMIT.plus(Duration.ofSeconds(5))).pollInterval(Duration.ofMillis(100))
                        .until(() -> receiver.deliveries().size() >= before + 3);
                long effectMs = System.currentTimeMillis() - t0;
                record("webhook-dispatcher", fault, -1, effectMs);
                if (fault == Fault.FREEZE) {
                    signal("CONT", pid);
                } else {
                    awaitRestarted(instance, pid, "WEBHOOK_DISPATCHER_URLS");
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

    private static void record(String service, Fault fault, long movedMs, long effectMs) {
        String f = String.format("| %s | %s | %s | %.1f s |", service, fault == Fault.FREEZE ? "SIGSTOP (frozen)" : "kill -9",
                movedMs < 0 ? "(active-active)" : String.format("%.1f s", movedMs / 1000.0), effectMs / 1000.0);
        FIGURES.add(f);
        System.out.println("[failover] " + f);
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
        Process p = new ProcessBuilder("kill", "-" + sig, Long.toString(pid)).redirectErrorStream(true).start();
        assertThat(p.waitFor()).as("kill -" + sig + " " + pid).isZero();
    }

    /** A killed instance: the launcher starts it again (a new pid) and it answers ready. */
    private void awaitRestarted(String instance, long oldPid, String urlsKey) {
        int n = instance.matches(".*-\\d+$") ? Integer.parseInt(instance.substring(instance.lastIndexOf('-') + 1)) : 1;
        String url = env.get(urlsKey).split(",")[n - 1];
        await(instance + " restarted and ready").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                .ignoreExceptions().until(() -> ReplicatedStack.pid(instance) != oldPid && http.send(
                        HttpRequest.newBuilder(URI.create(url + "/q/health/ready")).timeout(Duration.ofSeconds(2)).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
    }
}
