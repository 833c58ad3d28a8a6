package dev.agentpay.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.localstack.RepoPaths;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.chain.UsdcInstaller;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/** The run command's promise, checked from outside: every part up, the contract written, data kept, nothing left behind. */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalStackIT {

    static final List<String> REQUIRED_KEYS = List.of("BASE_URL", "API_KEY", "SIGNING_SECRET", "API_KEY_2",
            "SIGNING_SECRET_2", "ADMIN_API_KEY", "ANCHOR_RPC_URL", "ANCHOR_CHAIN_ID", "ANCHOR_CONTRACT_ADDRESS",
            "CHAIN_BASE_RPC_URL", "CHAIN_POLYGON_RPC_URL", "CHAIN_ARBITRUM_RPC_URL", "CHAIN_SKALE_RPC_URL",
            "CHAIN_BASE_USDC_ADDRESS", "CHAIN_POLYGON_USDC_ADDRESS", "CHAIN_ARBITRUM_USDC_ADDRESS", "CHAIN_SKALE_USDC_ADDRESS",
            "CHAIN_BASE_PAYMENT_ADDRESS", "CHAIN_POLYGON_PAYMENT_ADDRESS", "CHAIN_ARBITRUM_PAYMENT_ADDRESS",
            "CHAIN_SKALE_PAYMENT_ADDRESS", "SOLANA_RPC_URL", "SOLANA_PAYMENT_ADDRESS", "SOLANA_USDC_MINT",
            "X402_FACILITATOR_URL", "DEV_PAYER_PRIVATE_KEY", "DEV_PAYER_ADDRESS");

    static LocalStackProcess stack;
    static Map<String, String> env;

    @BeforeAll
    static void start() throws Exception {
        Path dir = RepoPaths.root().resolve("deploy/e2e/target/stack-" + System.currentTimeMillis());
        stack = new LocalStackProcess(dir);
        env = stack.start(Duration.ofMinutes(6));
    }

    @AfterAll
    static void stop() throws Exception {
        if (stack != null) {
            stack.stop();
        }
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
}
