package dev.agentpay.invoice.x402;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.invoice.TestSupport;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.chain.UsdcInstaller;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /v1/invoices/{id}/pay}: any invoice paid with x402 by the official client, through the local
 * facilitator on a real anvil base chain, straight to the invoice's own deposit address; the same answer
 * finds the invoice SETTLED, exactly once; unknown, settled and foreign-chain invoices are refused before
 * any money moves.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(FacilitatorTestResource.class)
class PayInvoiceTest {

    @TestHTTPResource("/")
    URL root;

    @Inject
    PartnerRegistry registry;

    String key;
    EvmRpc rpc;

    @BeforeEach
    void partner() {
        key = TestSupport.partner(registry);
        rpc = new EvmRpc(FacilitatorTestResource.rpcUrl());
    }

    String payUrl(String id) {
        return root.toString().replaceAll("/+$", "") + "/v1/invoices/" + id + "/pay";
    }

    BigInteger balance(String address) {
        return UsdcInstaller.balanceOf(rpc, UsdcInstaller.BASE.address(), address);
    }

    @Test
    void theChallengeAsksForExactlyTheInvoicesAmountToItsOwnAddressInBothVersions() {
        JsonPath inv = TestSupport.create(key, "{\"amount\": 2.5, \"chain\": \"base\"}");
        String id = inv.getString("data.id");
        String address = inv.getString("data.paymentDetails.paymentAddress");
        JsonNode c = X402Client.run(X402Client.command("challenge", payUrl(id), "{}"));
        assertThat(c.path("status").asInt()).isEqualTo(402);
        assertThat(c.get("parsed")).hasSize(1); // parsed by the official PaymentRequirementsSchema
        JsonNode r = c.get("parsed").get(0);
        assertThat(r.path("scheme").asText()).isEqualTo("exact");
        assertThat(r.path("network").asText()).isEqualTo("base");
        assertThat(r.path("maxAmountRequired").asText()).isEqualTo("2500000");
        assertThat(r.path("payTo").asText()).isEqualTo(address).isNotEqualToIgnoringCase(FacilitatorTestResource.SELLER);
        assertThat(r.path("asset").asText()).isEqualTo(UsdcInstaller.BASE.address());
        assertThat(r.path("resource").asText()).isEqualTo(payUrl(id));
        JsonNode v2 = c.get("v2").get("accepts").get(0);
        assertThat(v2.path("network").asText()).isEqualTo("eip155:8453");
        assertThat(v2.path("amount").asText()).isEqualTo("2500000");
        assertThat(v2.path("payTo").asText()).isEqualTo(address);
        assertThat(c.path("headers").path("cache-control").asText()).isEqualTo("no-store");
    }

    @Test
    void theOfficialClientPaysAnInvoiceWhichTheSameAnswerFindsSettledExactlyOnce() {
        // x402 / x402-fetch 1.2.0: the v1 body, X-PAYMENT
        paidExactlyOnceBy("fetch", "1.25", 1_250_000, "base");
    }

    @Test
    void theOfficialV2ClientPaysAnInvoiceExactlyOnce() {
        // @x402/fetch 2.27.0 + @x402/evm: reads the v2 PAYMENT-REQUIRED header (CAIP-2 eip155:8453), pays with PAYMENT-SIGNATURE
        paidExactlyOnceBy("fetch-v2", "0.5", 500_000, "eip155:8453");
    }

    /** One official client pays a fresh invoice end to end; the same answer finds it SETTLED; paying again charges nothing. */
    private void paidExactlyOnceBy(String op, String amount, long atomic, String network) {
        JsonPath inv = TestSupport.create(key, "{\"amount\": " + amount + ", \"chain\": \"base\"}");
        String id = inv.getString("data.id");
        String address = inv.getString("data.paymentDetails.paymentAddress");
        BigInteger payerBefore = balance(FacilitatorTestResource.PAYER);

        ObjectNode cmd = X402Client.command(op, payUrl(id), "{}");
        cmd.put("maxValue", 2_000_000);
        JsonNode paid = X402Client.run(cmd);
        assertThat(paid.path("status").asInt()).as("%s", paid).isEqualTo(200);
        assertThat(paid.path("paymentResponse").path("network").asText()).isEqualTo(network);
        JsonNode result = paid.path("body").path("result");
        assertThat(paid.path("body").path("capability").asText()).isEqualTo("pay");
        assertThat(result.path("id").asText()).isEqualTo(id);
        assertThat(result.path("status").asText()).isEqualTo("SETTLED");
        assertThat(result.path("paymentDetails").path("settlementSource").asText()).isEqualTo("x402");
        String tx = paid.path("paymentResponse").path("transaction").asText();
        assertThat(result.path("paymentDetails").path("txHash").asText()).isEqualTo(tx).startsWith("0x");
        assertThat(result.path("paymentDetails").path("paidAtomic").asText()).isEqualTo(Long.toString(atomic));
        assertThat(result.has("customerEmail")).isFalse();
        // exactly once: the money moved once, straight to the invoice's own address (swept to the seller later)
        assertThat(balance(address)).isEqualTo(BigInteger.valueOf(atomic));
        assertThat(payerBefore.subtract(balance(FacilitatorTestResource.PAYER))).isEqualTo(BigInteger.valueOf(atomic));
        JsonPath owner = TestSupport.get(key, id);
        assertThat(owner.getString("data.status")).isEqualTo("SETTLED");
        assertThat(owner.getString("data.paymentDetails.settlementSource")).isEqualTo("x402");
        assertThat(owner.getString("data.paymentDetails.txHash")).isEqualTo(tx);

        // paying it again is refused before any payment is asked for: nothing charged
        BigInteger payerAfter = balance(FacilitatorTestResource.PAYER);
        Response again = given().post("/v1/invoices/" + id + "/pay");
        assertThat(again.statusCode()).isEqualTo(409);
        assertThat(again.jsonPath().getString("error.code")).isEqualTo("invoice_already_settled");
        assertThat(X402Client.run(cmd).path("status").asInt()).isEqualTo(409);
        assertThat(balance(FacilitatorTestResource.PAYER)).isEqualTo(payerAfter);
    }

    @Test
    void anInvoicePastItsDeadlineIsRefusedWithoutAChallenge() {
        String deadline = java.time.Instant.now().plusSeconds(3).toString();
        String id = TestSupport.create(key, "{\"amount\": 1, \"chain\": \"base\", \"expiresAt\": \"" + deadline + "\"}")
                .getString("data.id");
        BigInteger payerBefore = balance(FacilitatorTestResource.PAYER);
        org.awaitility.Awaitility.await("deadline passed").atMost(java.time.Duration.ofSeconds(10))
                .until(() -> java.time.Instant.now().isAfter(java.time.Instant.parse(deadline)));
        Response r = given().post("/v1/invoices/" + id + "/pay");
        assertThat(r.statusCode()).isEqualTo(410);
        assertThat(r.jsonPath().getString("error.code")).isEqualTo("invoice_expired");
        ObjectNode cmd = X402Client.command("fetch-v2", payUrl(id), "{}");
        assertThat(X402Client.run(cmd).path("status").asInt()).isEqualTo(410);
        assertThat(balance(FacilitatorTestResource.PAYER)).isEqualTo(payerBefore);
    }

    @Test
    void anyoneHoldingTheIdReadsTheInvoicesStateWithoutAKeyAndWithoutItsPersonalFields() {
        String id = TestSupport.create(key, "{\"amount\": 0.5, \"chain\": \"polygon\", \"customerEmail\": \"buyer@example.com\","
                + " \"customerName\": \"Buyer\"}").getString("data.id");
        Response read = given().get("/v1/invoices/" + id + "/pay");
        assertThat(read.statusCode()).isEqualTo(200);
        assertThat(read.getHeader("Cache-Control")).isEqualTo("no-store");
        assertThat(read.jsonPath().getBoolean("success")).isTrue();
        assertThat(read.jsonPath().getString("data.id")).isEqualTo(id);
        assertThat(read.jsonPath().getString("data.status")).isEqualTo("PENDING");
        assertThat(read.jsonPath().getString("data.amount")).isEqualTo(TestSupport.get(key, id).getString("data.amount"));
        assertThat(read.jsonPath().getString("data.paymentDetails.paymentAddress")).startsWith("0x");
        assertThat(read.asString()).doesNotContain("buyer@example.com").doesNotContain("customerEmail");
        assertThat(given().get("/v1/invoices/" + UUID.randomUUID() + "/pay").then().extract().statusCode()).isEqualTo(404);
        Response malformed = given().get("/v1/invoices/not-a-uuid/pay");
        assertThat(malformed.statusCode()).isEqualTo(404);
        assertThat(malformed.jsonPath().getString("error.code")).isEqualTo("invoice_not_found");
    }

    @Test
    void unknownMalformedAndForeignChainInvoicesAreRefusedWithoutAChallenge() {
        Response unknown = given().post("/v1/invoices/" + UUID.randomUUID() + "/pay");
        assertThat(unknown.statusCode()).isEqualTo(404);
        assertThat(unknown.jsonPath().getString("error.code")).isEqualTo("invoice_not_found");
        assertThat(given().post("/v1/invoices/not-a-uuid/pay").statusCode()).isEqualTo(404);
        String polygon = TestSupport.create(key, "{\"amount\": 3, \"chain\": \"polygon\"}").getString("data.id");
        Response foreign = given().post("/v1/invoices/" + polygon + "/pay");
        assertThat(foreign.statusCode()).isEqualTo(400);
        assertThat(foreign.jsonPath().getString("error.code")).isEqualTo("x402_unsupported_chain");
        assertThat(foreign.jsonPath().getString("error.message")).contains("3000000");
        // no API key needed, but the partner API itself still needs one
        assertThat(given().get("/v1/invoices/" + polygon).statusCode()).isEqualTo(401);
    }

    @Test
    void aV2PaymentPaysTheInvoice() {
        String id = TestSupport.create(key, "{\"amount\": 0.75, \"chain\": \"base\"}").getString("data.id");
        ObjectNode sign = X402Client.command("sign", payUrl(id), "{}");
        sign.put("v2", true);
        String header = X402Client.run(sign).path("header").asText();
        Response r = given().header("PAYMENT-SIGNATURE", header).post("/v1/invoices/" + id + "/pay");
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(200);
        assertThat(r.jsonPath().getString("result.status")).isEqualTo("SETTLED");
        assertThat(r.getHeader("PAYMENT-RESPONSE")).isNotBlank();
    }

    @Test
    void concurrentPaymentsOfOneInvoiceChargeOnce() throws Exception {
        JsonPath inv = TestSupport.create(key, "{\"amount\": 0.5, \"chain\": \"base\"}");
        String id = inv.getString("data.id");
        String address = inv.getString("data.paymentDetails.paymentAddress");
        // two different signed payments (different EIP-3009 nonces) for the same invoice
        List<String> headers = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            headers.add(X402Client.run(X402Client.command("sign", payUrl(id), "{}")).path("header").asText());
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Response>> calls = new ArrayList<>();
            for (String h : headers) {
                calls.add(pool.submit(() -> given().header("X-PAYMENT", h).post("/v1/invoices/" + id + "/pay")));
            }
            List<Integer> codes = new ArrayList<>();
            for (Future<Response> f : calls) {
                codes.add(f.get().statusCode());
            }
            assertThat(codes).containsOnlyOnce(200);
            assertThat(codes).allMatch(c -> c == 200 || c == 402 || c == 409);
        } finally {
            pool.shutdownNow();
        }
        assertThat(balance(address)).isEqualTo(BigInteger.valueOf(500_000));
        assertThat(TestSupport.get(key, id).getString("data.paymentDetails.paidAtomic")).isEqualTo("500000");
    }
}
