package dev.agentpay.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.localstack.solana.SolanaKeys;
import dev.agentpay.localstack.solana.SolanaNode;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Solana rail on the real stack, with real signed transactions on the local SVM: an invoice is
 * settled by a USDC transfer carrying its memo, and only by that; transfers of another mint, to another
 * wallet, without the memo or failing on chain settle nothing; the facilitator offers the Solana rail
 * with the fee payer the services advertise.
 */
class SolanaIT {

    static Map<String, String> env;

    @BeforeAll
    static void start() throws Exception {
        env = SharedStack.env();
    }

    static SolanaNode.Payment pay(String to, long amount, String memo, String... options) {
        return SolanaNode.pay(env.get("SOLANA_RPC_URL"), env.get("SOLANA_DEV_PAYER_SECRET_KEY"), to, amount, memo, options);
    }

    static JsonPath invoice(String id) {
        return given().baseUri(env.get("BASE_URL")).header("x-api-key", env.get("API_KEY"))
                .get("/v1/invoices/" + id).then().statusCode(200).extract().jsonPath();
    }

    @Test
    void theStackWritesTheSolanaKeysAndTheFacilitatorOffersTheRail() {
        assertThat(env).containsKeys("SOLANA_DEV_PAYER_SECRET_KEY", "SOLANA_DEV_PAYER_ADDRESS", "X402_SOLANA_FEE_PAYER");
        assertThat(env).doesNotContainKey("SOLANA_FACILITATOR_SECRET_KEY");
        List<Map<String, Object>> kinds = given().baseUri(env.get("X402_FACILITATOR_URL")).get("/supported")
                .then().statusCode(200).extract().jsonPath().getList("kinds");
        assertThat(kinds).anySatisfy(k -> {
            assertThat(k.get("network")).isEqualTo("solana");
            assertThat(((Map<?, ?>) k.get("extra")).get("feePayer")).isEqualTo(env.get("X402_SOLANA_FEE_PAYER"));
        });
        List<Map<String, Object>> accepts = given().baseUri(env.get("BASE_URL")).contentType("application/json").body("{}")
                .post("/api/x402/invoice").then().statusCode(402).extract().jsonPath().getList("accepts");
        assertThat(accepts.get(0).get("network")).isEqualTo("solana");
        assertThat(accepts.get(0).get("payTo")).isEqualTo(env.get("SOLANA_PAYMENT_ADDRESS"));
    }

    @Test
    void onlyTheUsdcTransferWithTheMemoToTheSellerSettlesTheInvoice() throws Exception {
        JsonPath created = given().baseUri(env.get("BASE_URL")).header("x-api-key", env.get("API_KEY"))
                .contentType("application/json").body("{\"amount\": 1.25, \"chain\": \"solana\"}")
                .post("/v1/invoices").then().statusCode(201).extract().jsonPath();
        String id = created.getString("data.id");
        String memo = created.getString("data.paymentDetails.memo");
        String seller = created.getString("data.paymentDetails.paymentAddress");
        assertThat(seller).isEqualTo(env.get("SOLANA_PAYMENT_ADDRESS"));
        long amount = Long.parseLong(created.getString("data.paymentDetails.payableAtomic"));

        // What must settle nothing, each landed on chain before the real payment.
        assertThat(pay(seller, amount, memo, "--fail").failed()).isTrue();
        pay(seller, amount, memo, "--new-mint");
        pay(SolanaKeys.generate().address(), amount, memo);
        pay(seller, amount, null);
        SolanaNode.Payment paid = pay(seller, amount, memo);

        JsonPath settled = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250)).until(() -> {
            JsonPath inv = invoice(id);
            return "SETTLED".equals(inv.getString("data.status")) ? inv : null;
        }, Objects::nonNull);
        assertThat(settled.getString("data.paymentDetails.txHash")).isEqualTo(paid.signature());
        assertThat(settled.getString("data.paymentDetails.settlementSource")).isEqualTo("solana-detector");
        assertThat(settled.getString("data.paymentDetails.payerAddress")).isEqualTo(env.get("SOLANA_DEV_PAYER_ADDRESS"));
    }
}
