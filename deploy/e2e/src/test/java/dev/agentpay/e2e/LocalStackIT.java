package dev.agentpay.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.chain.UsdcInstaller;
import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The run command's promise, checked from outside: every part up, the contract written, data kept, nothing left behind. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Order(1)
class LocalStackIT {

    static final List<String> REQUIRED_KEYS = List.of("BASE_URL", "API_KEY", "SIGNING_SECRET", "API_KEY_2",
            "SIGNING_SECRET_2", "ADMIN_API_KEY", "ANCHOR_RPC_URL", "ANCHOR_CHAIN_ID", "ANCHOR_CONTRACT_ADDRESS",
            "CHAIN_BASE_RPC_URL", "CHAIN_POLYGON_RPC_URL", "CHAIN_ARBITRUM_RPC_URL", "CHAIN_SKALE_RPC_URL",
            "CHAIN_BASE_USDC_ADDRESS", "CHAIN_POLYGON_USDC_ADDRESS", "CHAIN_ARBITRUM_USDC_ADDRESS", "CHAIN_SKALE_USDC_ADDRESS",
            "CHAIN_BASE_PAYMENT_ADDRESS", "CHAIN_POLYGON_PAYMENT_ADDRESS", "CHAIN_ARBITRUM_PAYMENT_ADDRESS",
            "CHAIN_SKALE_PAYMENT_ADDRESS", "CHAIN_BASE_DEPOSIT_FACTORY_ADDRESS", "CHAIN_POLYGON_DEPOSIT_FACTORY_ADDRESS",
            "CHAIN_ARBITRUM_DEPOSIT_FACTORY_ADDRESS", "CHAIN_SKALE_DEPOSIT_FACTORY_ADDRESS", "SOLANA_RPC_URL", "SOLANA_PAYMENT_ADDRESS", "SOLANA_USDC_MINT",
            "X402_FACILITATOR_URL", "DEV_PAYER_PRIVATE_KEY", "DEV_PAYER_ADDRESS");

    static LocalStackProcess stack;
    static Map<String, String> env;

    @BeforeAll
    static void start() throws Exception {
        env = SharedStack.env();
        stack = SharedStack.process();
    }

    @Test
    @Order(1)
    void writesEveryKeyOfTheContract() {
        assertThat(env).containsKeys(REQUIRED_KEYS.toArray(String[]::new));
        assertThat(env.get("API_KEY")).matches("sk_[0-9a-f]{64}");
        assertThat(env.get("API_KEY_2")).matches("sk_[0-9a-f]{64}").isNotEqualTo(env.get("API_KEY"));
        assertThat(env.get("BASE_URL")).isEqualTo("http://127.0.0.1:" + stack.gatewayPort);
    }

    @Test
    @Order(2)
    void everyServiceIsReady() {
        for (String svc : List.of("MANDATE_SERVICE", "INVOICE_SERVICE", "SETTLEMENT_WATCHER", "ANCHOR_SERVICE",
                "DISCOVERY_SERVICE", "WEBHOOK_DISPATCHER")) {
            given().baseUri(env.get(svc + "_URL")).get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        }
    }

    @Test
    @Order(3)
    void chainsAnswerWithTheirIdsAndHoldUsdcForThePayer() {
        assertThat(new EvmRpc(env.get("ANCHOR_RPC_URL")).chainId()).isEqualTo(84532L);
        assertThat(new EvmRpc(env.get("ANCHOR_RPC_URL")).getCode(env.get("ANCHOR_CONTRACT_ADDRESS")).length()).isGreaterThan(2);
        for (UsdcInstaller.Canonical c : UsdcInstaller.EVM_CHAINS) {
            String prefix = "CHAIN_" + c.chain().toUpperCase();
            EvmRpc rpc = new EvmRpc(env.get(prefix + "_RPC_URL"));
            assertThat(rpc.chainId()).as(c.chain()).isEqualTo(c.chainId());
            assertThat(env.get(prefix + "_USDC_ADDRESS")).isEqualToIgnoringCase(c.address());
            assertThat(UsdcInstaller.balanceOf(rpc, c.address(), env.get("DEV_PAYER_ADDRESS"))).as(c.chain())
                    .isGreaterThan(BigInteger.ZERO);
        }
    }

    @Test
    @Order(4)
    void facilitatorAnswersSupported() {
        given().baseUri(env.get("X402_FACILITATOR_URL")).get("/supported").then().statusCode(200)
                .body("kinds[0].scheme", equalTo("exact"));
    }

    @Test
    @Order(5)
    void gatewayRoutesAndAuthenticatesWithTheDevelopmentKeys() {
        given().baseUri(env.get("BASE_URL")).get("/v1/invoices/00000000-0000-0000-0000-000000000000")
                .then().statusCode(401).body("success", equalTo(false));
        given().baseUri(env.get("BASE_URL")).header("x-api-key", env.get("API_KEY"))
                .get("/v1/mandates/mnd_00000000-0000-0000-0000-000000000000")
                .then().statusCode(404).body("success", equalTo(false));
        given().baseUri(env.get("BASE_URL")).get("/no/such/route").then().statusCode(404).body("error.code", equalTo("not_found"));
    }

    /**
     * One event's path across services over the real broker: mandate-service's outbox -> Kafka ->
     * anchor-service (anchors on chain) -> its outbox -> Kafka -> mandate-service (sets the hash). The
     * same mandate event delivered a second time anchors nothing more.
     */
    @Test
    @Order(6)
    void everyTransitionIsAnchoredOnceEvenWhenItsEventIsDeliveredTwice() throws Exception {
        MandateFlows flows = new MandateFlows(env.get("BASE_URL"), env.get("API_KEY"), env.get("SIGNING_SECRET"));
        String id = flows.create();
        JsonNode m = flows.get(id);
        String sig = flows.signature(m);
        flows.sign(id, "proposer", sig);
        flows.sign(id, "counterparty", sig);

        JsonNode anchored = await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).until(() -> {
            JsonNode cur = flows.get(id);
            for (int i = 1; i < cur.get("transitions").size(); i++) {
                if (cur.get("transitions").get(i).get("anchor_tx_hash").isNull()) {
                    return null;
                }
            }
            return cur.get("transitions").size() == 3 ? cur : null;
        }, Objects::nonNull);
        assertThat(anchored.get("transitions").get(0).get("anchor_tx_hash").isNull()).as("creation row").isTrue();
        String hash = anchored.get("proto_mandate_hash").asText();
        EvmRpc chain = new EvmRpc(env.get("ANCHOR_RPC_URL"));
        assertThat(anchorLogs(chain, hash)).as("one MandateAnchored per transition").isEqualTo(2);

        // Deliver the signed_by_proposer event again, exactly as it sits on the topic.
        int redelivered = Kafka.redeliver(env.get("KAFKA_BOOTSTRAP_SERVERS"), "mandate-events", id, "mandate.signed_by_proposer");
        assertThat(redelivered).isEqualTo(1);
        // a second anchor would be mined within a few batch windows and blocks: none may appear
        await("no second anchor after the redelivery").during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(500)).until(() -> anchorLogs(chain, hash) == 2);
        assertThat(flows.get(id).get("transitions").get(1).get("anchor_tx_hash")).isEqualTo(anchored.get("transitions").get(1).get("anchor_tx_hash"));
        assertThat(flows.get(id).get("transitions").get(2).get("anchor_tx_hash")).isEqualTo(anchored.get("transitions").get(2).get("anchor_tx_hash"));

        // each receipt was announced once with mandate.anchored (and anchor-service, which reads that topic,
        // anchored none of them: still two logs above); the views say anchored
        // anchored on every chain of the stack (the anchor chain and base: one anchor-service deployment each)
        JsonNode both = await("both anchor chains").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250))
                .until(() -> flows.get(id), cur -> cur.get("transitions").get(2).get("anchors").size() == MandateProofs.anchorChains(env).size()
                        && cur.get("transitions").get(1).get("anchors").size() == MandateProofs.anchorChains(env).size());
        assertThat(both.get("transitions").findValuesAsText("anchor_status")).containsExactly("none", "anchored", "anchored");
        List<JsonNode> announced = new java.util.ArrayList<>();
        for (Kafka.Rec r : Kafka.readAll(env.get("KAFKA_BOOTSTRAP_SERVERS"), "mandate-events")) {
            JsonNode v = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.value());
            if (id.equals(r.key()) && "mandate.anchored".equals(v.path("type").asText())) {
                announced.add(v);
            }
        }
        // one mandate.anchored per transition and chain, naming its chain
        List<String> perChain = new java.util.ArrayList<>();
        for (long chainId : MandateProofs.anchorChains(env)) {
            perChain.add(chainId + ":signed_by_proposer");
            perChain.add(chainId + ":signed_by_both");
        }
        assertThat(announced).extracting(v -> v.at("/mandate/anchor/chain_id").asLong() + ":" + v.path("toState").asText())
                .containsExactlyInAnyOrderElementsOf(perChain);
        given().baseUri(env.get("BASE_URL")).get("/v1/public/mandates/" + id).then().statusCode(200)
                .body("data.anchor_status", equalTo("anchored"));

        // Another partner cannot see it.
        given().baseUri(env.get("BASE_URL")).header("x-api-key", env.get("API_KEY_2")).get("/v1/mandates/" + id)
                .then().statusCode(404);
    }

    private static int anchorLogs(EvmRpc chain, String mandateHash) {
        var filter = new java.util.LinkedHashMap<String, Object>();
        filter.put("address", env.get("ANCHOR_CONTRACT_ADDRESS"));
        filter.put("fromBlock", "0x0");
        filter.put("toBlock", "latest");
        filter.put("topics", java.util.Arrays.asList(null, mandateHash));
        return chain.call("eth_getLogs", filter).size();
    }
}
