package dev.agentpay.invoice.x402;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.invoice.x402.domain.PaymentState;
import dev.agentpay.invoice.x402.service.X402Reconciler;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.chain.UsdcInstaller;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The x402 endpoints end to end: the official x402 client packages pay them through the local
 * facilitator (official verify/settle) on a real anvil base chain, against the real PostgreSQL.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(FacilitatorTestResource.class)
class X402Test {

    @TestHTTPResource("/api/x402/invoice")
    URL invoiceUrl;

    @TestHTTPResource("/api/x402/settle")
    URL settleUrl;

    @Inject
    Pool pool;

    @Inject
    X402Reconciler reconciler;

    @Inject
    dev.agentpay.commons.auth.PartnerRegistry registry;

    // ---------------------------------------------------------------- challenge

    @Test
    void invoiceChallengeMeetsTheOfficialSchemaWithBothRails() {
        JsonNode c = X402Client.run(X402Client.command("challenge", invoiceUrl.toString(), "{\"recipient\": \"Bob\"}"));
        assertThat(c.path("status").asInt()).isEqualTo(402);
        JsonNode body = c.get("body");
        assertThat(body.path("x402Version").asInt()).isEqualTo(1);
        assertThat(body.path("error").asText()).contains("X-PAYMENT");
        assertThat(c.get("parsed")).hasSize(2);
        // Solana first (the spec's rail for x402), then EVM
        JsonNode evm = c.get("parsed").get(1);
        assertThat(evm.path("scheme").asText()).isEqualTo("exact");
        assertThat(evm.path("network").asText()).isEqualTo("base");
        assertThat(evm.path("maxAmountRequired").asText()).isEqualTo("10000");
        assertThat(evm.path("asset").asText()).isEqualTo(UsdcInstaller.BASE.address());
        assertThat(evm.path("payTo").asText()).isEqualTo(FacilitatorTestResource.SELLER);
        assertThat(evm.path("resource").asText()).isEqualTo(invoiceUrl.toString());
        assertThat(evm.path("extra").path("name").asText()).isEqualTo("USD Coin");
        assertThat(evm.path("extra").path("version").asText()).isEqualTo("2");
        assertThat(evm.path("mimeType").asText()).isEqualTo("application/json");
        assertThat(evm.path("maxTimeoutSeconds").asInt()).isPositive();
        assertThat(evm.path("description").asText()).isNotBlank();
        assertThat(evm.path("outputSchema").path("input").path("method").asText()).isEqualTo("POST");
        JsonNode sol = c.get("parsed").get(0);
        assertThat(sol.path("network").asText()).isEqualTo("solana");
        assertThat(sol.path("asset").asText()).isEqualTo("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
        assertThat(sol.path("payTo").asText()).isEqualTo("9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM");
        assertThat(sol.path("extra").path("feePayer").asText()).isEqualTo(dev.agentpay.localstack.testing.SharedServers.solanaFeePayer().address());
        assertThat(sol.path("scheme").asText()).isEqualTo("exact");
        assertThat(sol.path("maxAmountRequired").asText()).isEqualTo("10000");
        JsonNode headers = c.get("headers");
        assertThat(headers.path("cache-control").asText()).isEqualTo("no-store");
        assertThat(headers.path("access-control-expose-headers").asText()).contains("X-PAYMENT-RESPONSE", "PAYMENT-REQUIRED");
        JsonNode v2 = c.get("v2");
        assertThat(v2.path("x402Version").asInt()).isEqualTo(2);
        assertThat(v2.path("resource").path("url").asText()).isEqualTo(invoiceUrl.toString());
        assertThat(v2.path("accepts").get(0).path("network").asText()).isEqualTo("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp");
        assertThat(v2.path("accepts").get(0).path("asset").asText()).isEqualTo("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v");
        assertThat(v2.path("accepts").get(1).path("network").asText()).isEqualTo("eip155:8453");
        assertThat(v2.path("accepts").get(1).path("amount").asText()).isEqualTo("10000");
    }

    @Test
    void settleChallengeCostsHalfACent() {
        String id = payInvoice().path("body").path("result").path("id").asText();
        JsonNode c = X402Client.run(X402Client.command("challenge", settleUrl.toString(), "{\"invoice_id\": \"" + id + "\"}"));
        assertThat(c.path("status").asInt()).isEqualTo(402);
        assertThat(c.get("parsed").get(0).path("maxAmountRequired").asText()).isEqualTo("5000");
        assertThat(c.get("parsed").get(0).path("resource").asText()).isEqualTo(settleUrl.toString());
    }

    @Test
    void resourceFollowsTheGatewaysForwardedHost() {
        given().header("X-Forwarded-Host", "api.example.com").header("X-Forwarded-Proto", "https")
                .contentType(ContentType.JSON).body("{}")
                .post("/api/x402/invoice")
                .then().statusCode(402)
                .body("accepts[0].resource", org.hamcrest.Matchers.equalTo("https://api.example.com/api/x402/invoice"));
    }

    @Test
    void preflightAllowsThePaymentHeaders() {
        given().header("Origin", "https://agent.example").header("Access-Control-Request-Method", "POST")
                .options("/api/x402/invoice")
                .then().statusCode(204)
                .header("Access-Control-Allow-Origin", "*")
                .header("Access-Control-Allow-Headers", org.hamcrest.Matchers.containsString("X-PAYMENT"));
    }

    // ---------------------------------------------------------------- bad requests are never charged

    @Test
    void badBodiesAreRefusedBeforeAnyPayment() {
        String header = sign(invoiceUrl, "{}", null, null, false);
        given().header("X-PAYMENT", header).contentType(ContentType.JSON).body("{\"email\": \"not-an-email\"}")
                .post("/api/x402/invoice").then().statusCode(400)
                .body("success", org.hamcrest.Matchers.equalTo(false))
                .body("error.code", org.hamcrest.Matchers.equalTo("validation_error"));
        given().contentType(ContentType.JSON).body("{\"amount\": \"ten\"}")
                .post("/api/x402/invoice").then().statusCode(400);
        given().contentType(ContentType.JSON).body("{\"nope\": 1}")
                .post("/api/x402/invoice").then().statusCode(400);
        given().contentType(ContentType.JSON).body("{}")
                .post("/api/x402/settle").then().statusCode(400).body("error.message", org.hamcrest.Matchers.containsString("invoice_id"));
        given().contentType(ContentType.JSON).body("{\"invoice_id\": \"123\"}")
                .post("/api/x402/settle").then().statusCode(400);
        given().header("X-PAYMENT", header).contentType(ContentType.JSON)
                .body("{\"invoice_id\": \"" + UUID.randomUUID() + "\"}")
                .post("/api/x402/settle").then().statusCode(404).body("error.code", org.hamcrest.Matchers.equalTo("invoice_not_found"));
        assertThat(paymentRows(header)).isZero();
        // The same payment still pays a valid call afterwards: nothing was charged.
        Response ok = given().header("X-PAYMENT", header).contentType(ContentType.JSON).body("{}").post("/api/x402/invoice");
        assertThat(ok.statusCode()).isEqualTo(200);
    }

    // ---------------------------------------------------------------- the official clients pay

    @Test
    void x402FetchPaysBothEndpointsEndToEnd() {
        EvmRpc rpc = new EvmRpc(FacilitatorTestResource.rpcUrl());
        BigInteger before = UsdcInstaller.balanceOf(rpc, UsdcInstaller.BASE.address(), FacilitatorTestResource.SELLER);
        long invoicesBefore = x402Invoices();

        JsonNode paid = payInvoice();
        assertThat(paid.path("status").asInt()).isEqualTo(200);
        JsonNode body = paid.get("body");
        assertThat(body.path("success").asBoolean()).isTrue();
        assertThat(body.path("capability").asText()).isEqualTo("invoice");
        String id = body.path("result").path("id").asText();
        assertThat(UUID.fromString(id)).isNotNull();
        assertThat(body.path("result").path("status").asText()).isEqualTo("PENDING");
        assertThat(paid.path("paymentResponse").path("success").asBoolean()).isTrue();
        assertThat(paid.path("paymentResponse").path("transaction").asText()).startsWith("0x");
        assertThat(paid.path("paymentResponse").path("network").asText()).isEqualTo("base");
        assertThat(paid.path("paymentResponse").path("payer").asText()).isEqualToIgnoringCase(FacilitatorTestResource.PAYER);
        assertThat(x402Invoices()).isEqualTo(invoicesBefore + 1);
        JsonNode inv = invoiceRow(UUID.fromString(id));
        assertThat(inv.path("amount").asText()).isEqualTo("0.010000");
        assertThat(inv.path("customer_name").asText()).isEqualTo("Bob");
        assertThat(inv.path("chain").asText()).isEqualTo("base");

        ObjectNode settle = X402Client.command("fetch", settleUrl.toString(), "{\"invoice_id\": \"" + id + "\"}");
        JsonNode checked = X402Client.run(settle);
        assertThat(checked.path("status").asInt()).isEqualTo(200);
        assertThat(checked.path("body").path("capability").asText()).isEqualTo("settle");
        assertThat(checked.path("body").path("result").path("id").asText()).isEqualTo(id);
        assertThat(checked.path("body").path("result").path("status").asText()).isEqualTo("PENDING");
        assertThat(checked.path("body").path("result").path("paymentDetails").path("chain").asText()).isEqualTo("base");
        assertThat(checked.path("body").path("result").has("customerName")).isFalse();

        BigInteger after = UsdcInstaller.balanceOf(rpc, UsdcInstaller.BASE.address(), FacilitatorTestResource.SELLER);
        assertThat(after.subtract(before)).isEqualTo(BigInteger.valueOf(15000));
    }

    @Test
    void createPaymentHeaderPaysOnceAndAReplayIsRefused() {
        String header = sign(invoiceUrl, "{}", null, null, false);
        Response first = given().header("X-PAYMENT", header).contentType(ContentType.JSON)
                .body("{\"issuer\": \"agent-7\", \"amount\": 2.5}").post("/api/x402/invoice");
        assertThat(first.statusCode()).isEqualTo(200);
        JsonNode receipt = decode(first.getHeader("X-PAYMENT-RESPONSE"));
        assertThat(receipt.path("transaction").asText()).startsWith("0x");
        String id = first.jsonPath().getString("result.id");
        assertThat(invoiceRow(UUID.fromString(id)).path("amount").asText()).isEqualTo("2.500000");
        long count = x402Invoices();
        // the buyer watches the invoice it bought with the id alone (what discovery's catalog says): it is
        // owned by x402, so no partner key reads it
        given().get("/v1/invoices/" + id + "/pay").then().statusCode(200)
                .body("data.id", org.hamcrest.Matchers.equalTo(id))
                .body("data.status", org.hamcrest.Matchers.equalTo("PENDING"));
        given().header("x-api-key", dev.agentpay.invoice.TestSupport.partner(registry)).get("/v1/invoices/" + id)
                .then().statusCode(404);

        Response replay = given().header("X-PAYMENT", header).contentType(ContentType.JSON).body("{}").post("/api/x402/invoice");
        assertThat(replay.statusCode()).isEqualTo(402);
        assertThat(replay.jsonPath().getString("errorCode")).isEqualTo("payment_already_used");
        assertThat(replay.jsonPath().getString("error")).contains("already used");
        assertThat(replay.jsonPath().getList("accepts")).isNotEmpty();
        assertThat(x402Invoices()).isEqualTo(count);
    }

    @Test
    void concurrentDoubleSpendGivesOneInvoice() throws Exception {
        String header = sign(invoiceUrl, "{}", null, null, false);
        long count = x402Invoices();
        ExecutorService pool4 = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> calls = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                Callable<Integer> call = () -> given().header("X-PAYMENT", header).contentType(ContentType.JSON)
                        .body("{}").post("/api/x402/invoice").statusCode();
                calls.add(pool4.submit(call));
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> f : calls) {
                statuses.add(f.get());
            }
            assertThat(statuses).containsOnly(200, 402);
            assertThat(statuses.stream().filter(s -> s == 200).count()).isEqualTo(1);
        } finally {
            pool4.shutdownNow();
        }
        assertThat(x402Invoices()).isEqualTo(count + 1);
    }

    @Test
    void x402Version2PaymentSignatureIsAccepted() {
        String header = sign(invoiceUrl, "{}", null, null, true);
        Response r = given().header("PAYMENT-SIGNATURE", header).contentType(ContentType.JSON).body("{}").post("/api/x402/invoice");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.jsonPath().getString("result.status")).isEqualTo("PENDING");
        JsonNode v2 = decode(r.getHeader("PAYMENT-RESPONSE"));
        assertThat(v2.path("network").asText()).isEqualTo("eip155:8453");
        assertThat(v2.path("transaction").asText()).startsWith("0x");
        Response again = given().header("PAYMENT-SIGNATURE", header).contentType(ContentType.JSON).body("{}").post("/api/x402/invoice");
        assertThat(again.statusCode()).isEqualTo(402);
        assertThat(again.getHeader("PAYMENT-REQUIRED")).isNotBlank();
    }

    // ---------------------------------------------------------------- refused payments

    @Test
    void tamperedAmountIsRefused() {
        String header = sign(invoiceUrl, "{}", null, "{\"value\": \"1\"}", false);
        refused(header, "amount_mismatch", "10000");
    }

    @Test
    void paymentSignedForTheCheaperCallDoesNotPayTheDearerOne() {
        String header = sign(invoiceUrl, "{}", "{\"maxAmountRequired\": \"5000\"}", null, false);
        refused(header, "amount_mismatch", "5000");
    }

    @Test
    void wrongPayeeIsRefused() {
        String header = sign(invoiceUrl, "{}", "{\"payTo\": \"0x000000000000000000000000000000000000dEaD\"}", null, false);
        refused(header, "wrong_payee", FacilitatorTestResource.SELLER);
    }

    @Test
    void expiredAuthorizationIsRefused() {
        String header = sign(invoiceUrl, "{}", "{\"maxTimeoutSeconds\": -60}", null, false);
        refused(header, "payment_expired", "expired");
    }

    @Test
    void malformedHeadersAreRefused() {
        refused("not base64 at all!", "invalid_payment", "base64");
        refused(Base64.getEncoder().encodeToString("[1,2]".getBytes(StandardCharsets.UTF_8)), "invalid_payment", "JSON object");
        refused(Base64.getEncoder().encodeToString("{\"x402Version\":1,\"scheme\":\"exact\",\"network\":\"base\",\"payload\":{}}"
                .getBytes(StandardCharsets.UTF_8)), "invalid_payment", "signature");
        refused(Base64.getEncoder().encodeToString("{\"x402Version\":1,\"scheme\":\"upto\",\"network\":\"base\",\"payload\":{}}"
                .getBytes(StandardCharsets.UTF_8)), "unsupported_scheme", "exact");
        refused(Base64.getEncoder().encodeToString("{\"x402Version\":1,\"scheme\":\"exact\",\"network\":\"polygon\",\"payload\":{}}"
                .getBytes(StandardCharsets.UTF_8)), "unsupported_network", "polygon");
    }

    @Test
    void forgedSignatureIsRefusedByTheFacilitatorAndFreesNothing() {
        String nonce = "0x" + "ab".repeat(32);
        String header = sign(invoiceUrl, "{}", null, "{\"nonce\": \"" + nonce + "\"}", false);
        Response r = refused(header, "payment_invalid", "invalid_exact_evm_payload_signature");
        assertThat(r.jsonPath().getString("error")).contains("facilitator");
    }

    // ---------------------------------------------------------------- outages and crashes

    @Test
    void facilitatorDownIs503AndNoInvoiceThenTheSamePaymentWorks() {
        String header = sign(invoiceUrl, "{}", null, null, false);
        long count = x402Invoices();
        FacilitatorTestResource.stopFacilitator();
        try {
            given().header("X-PAYMENT", header).contentType(ContentType.JSON).body("{}")
                    .post("/api/x402/invoice").then().statusCode(503)
                    .body("success", org.hamcrest.Matchers.equalTo(false))
                    .body("error.code", org.hamcrest.Matchers.equalTo("facilitator_unavailable"))
                    .body("error.message", org.hamcrest.Matchers.containsString("not charged"));
            assertThat(x402Invoices()).isEqualTo(count);
            assertThat(paymentState(header)).isEqualTo("FAILED");
        } finally {
            FacilitatorTestResource.startFacilitator();
        }
        Response ok = given().header("X-PAYMENT", header).contentType(ContentType.JSON).body("{}").post("/api/x402/invoice");
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(x402Invoices()).isEqualTo(count + 1);
    }

    @Test
    void aPaymentSettledBeforeACrashGetsItsInvoiceFromTheReconciler() {
        UUID paymentId = UUID.randomUUID();
        String nonce = "0x" + UUID.randomUUID().toString().replace("-", "") + UUID.randomUUID().toString().replace("-", "");
        // The state a crash leaves between the two commits: money moved (SETTLED), no invoice yet.
        pool.preparedQuery("insert into x402_payment (id, payment_key, capability, x402_version, network, payer, pay_to,"
                        + " asset, amount_atomic, valid_before, nonce, state, request, tx_hash, created_at, updated_at)"
                        + " values ($1, $2, 'invoice', 1, 'base', $3, $4, $5, 10000, now() + interval '1 minute', $6, 'SETTLED',"
                        + " $7::jsonb, '0xabc', now() - interval '1 hour', now() - interval '1 hour')")
                .execute(Tuple.tuple(List.of(paymentId, "evm:test:" + nonce, FacilitatorTestResource.PAYER,
                        FacilitatorTestResource.SELLER, UsdcInstaller.BASE.address(), nonce,
                        "{\"issuer\":null,\"recipient\":\"Crash\",\"email\":null,\"amount\":\"0.01\",\"currency\":\"USDC\",\"description\":null}")))
                .await().indefinitely();
        long count = x402Invoices();
        reconciler.run().await().indefinitely();
        var row = pool.preparedQuery("select state, invoice_id from x402_payment where id = $1").execute(Tuple.of(paymentId))
                .await().indefinitely().iterator().next();
        assertThat(row.getString("state")).isEqualTo(PaymentState.COMPLETED.name());
        UUID invoiceId = row.getUUID("invoice_id");
        assertThat(invoiceRow(invoiceId).path("customer_name").asText()).isEqualTo("Crash");
        assertThat(x402Invoices()).isEqualTo(count + 1);
        reconciler.run().await().indefinitely();
        assertThat(x402Invoices()).isEqualTo(count + 1);
    }

    @Test
    void aLostSettleOutcomeIsResolvedFromTheChain() {
        // An authorization that never reached the chain and expired: the reconciler frees it.
        UUID unused = insertSettling("0x" + "cd".repeat(32));
        // An authorization the facilitator did execute, but whose answer never came back.
        ObjectNode c = X402Client.command("sign", invoiceUrl.toString(), "{}");
        JsonNode signed = X402Client.run(c);
        JsonNode payment = decode(signed.path("header").asText());
        ObjectNode settle = X402Client.JSON.createObjectNode();
        settle.put("x402Version", 1);
        settle.set("paymentPayload", payment);
        settle.set("paymentRequirements", signed.get("requirement"));
        JsonNode answer = postJson(FacilitatorTestResource.facilitatorUrl() + "/settle", settle.toString());
        assertThat(answer.path("success").asBoolean()).as(answer.toString()).isTrue();
        UUID used = insertSettling(payment.path("payload").path("authorization").path("nonce").asText().toLowerCase());
        long count = x402Invoices();

        reconciler.run().await().indefinitely();

        assertThat(stateOf(unused)).isEqualTo("FAILED");
        assertThat(stateOf(used)).isEqualTo("COMPLETED");
        assertThat(x402Invoices()).isEqualTo(count + 1);
    }

    private static JsonNode postJson(String url, String body) {
        try {
            var http = java.net.http.HttpClient.newHttpClient();
            var r = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url))
                    .header("content-type", "application/json")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            return X402Client.JSON.readTree(r.body());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    // ---------------------------------------------------------------- helpers

    private JsonNode payInvoice() {
        JsonNode r = X402Client.run(X402Client.command("fetch", invoiceUrl.toString(), "{\"recipient\": \"Bob\"}"));
        assertThat(r.path("status").asInt()).as("paid call: %s", r).isEqualTo(200);
        return r;
    }

    private String sign(URL url, String body, String overrides, String tamper, boolean v2) {
        ObjectNode c = X402Client.command("sign", url.toString(), body);
        try {
            if (overrides != null) {
                c.set("overrides", X402Client.JSON.readTree(overrides));
            }
            if (tamper != null) {
                c.set("tamper", X402Client.JSON.readTree(tamper));
            }
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
        c.put("v2", v2);
        return X402Client.run(c).path("header").asText();
    }

    private Response refused(String header, String code, String messagePart) {
        long count = x402Invoices();
        Response r = given().header("X-PAYMENT", header).contentType(ContentType.JSON).body("{}").post("/api/x402/invoice");
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(402);
        assertThat(r.jsonPath().getString("errorCode")).isEqualTo(code);
        assertThat(r.jsonPath().getString("error")).contains(messagePart);
        assertThat(r.jsonPath().getInt("x402Version")).isEqualTo(1);
        assertThat(r.jsonPath().getList("accepts")).hasSize(2);
        assertThat(r.getHeader("Cache-Control")).isEqualTo("no-store");
        assertThat(x402Invoices()).isEqualTo(count);
        return r;
    }

    private UUID insertSettling(String nonce) {
        UUID id = UUID.randomUUID();
        pool.preparedQuery("insert into x402_payment (id, payment_key, capability, x402_version, network, payer, pay_to,"
                        + " asset, amount_atomic, valid_before, nonce, state, request, created_at, updated_at)"
                        + " values ($1, $2, 'invoice', 1, 'base', $3, $4, $5, 10000, now() - interval '1 hour', $6, 'SETTLING',"
                        + " '{\"amount\":\"0.01\",\"recipient\":\"Lost\"}'::jsonb, now() - interval '2 hours', now() - interval '2 hours')")
                .execute(Tuple.tuple(List.of(id, "evm:test:" + nonce, FacilitatorTestResource.PAYER,
                        FacilitatorTestResource.SELLER, UsdcInstaller.BASE.address(), nonce)))
                .await().indefinitely();
        return id;
    }

    private String stateOf(UUID id) {
        return pool.preparedQuery("select state from x402_payment where id = $1").execute(Tuple.of(id))
                .await().indefinitely().iterator().next().getString(0);
    }

    private long x402Invoices() {
        return pool.query("select count(*) from invoice where partner_id = 'x402'").execute()
                .await().indefinitely().iterator().next().getLong(0);
    }

    private JsonNode invoiceRow(UUID id) {
        var rs = pool.preparedQuery("select amount::text as amount, customer_name, chain from invoice where id = $1")
                .execute(Tuple.of(id)).await().indefinitely();
        assertThat(rs.size()).isEqualTo(1);
        var r = rs.iterator().next();
        ObjectNode n = X402Client.JSON.createObjectNode();
        n.put("amount", r.getString("amount"));
        n.put("customer_name", r.getString("customer_name"));
        n.put("chain", r.getString("chain"));
        return n;
    }

    private long paymentRows(String header) {
        String nonce = decode(header).path("payload").path("authorization").path("nonce").asText();
        return pool.preparedQuery("select count(*) from x402_payment where nonce = $1").execute(Tuple.of(nonce.toLowerCase()))
                .await().indefinitely().iterator().next().getLong(0);
    }

    private String paymentState(String header) {
        String nonce = decode(header).path("payload").path("authorization").path("nonce").asText();
        return pool.preparedQuery("select state from x402_payment where nonce = $1").execute(Tuple.of(nonce.toLowerCase()))
                .await().indefinitely().iterator().next().getString(0);
    }

    private static JsonNode decode(String b64) {
        try {
            return X402Client.JSON.readTree(Base64.getDecoder().decode(b64));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
