package dev.agentpay.invoice.x402;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.localstack.solana.SolanaNode;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.localstack.testing.SharedServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * x402 on the Solana rail end to end: the official clients ({@code x402} 1.2.0 for v1, {@code @x402/fetch}
 * with {@code @x402/svm}'s ExactSvmScheme for v2) sign a USDC TransferChecked on the local Solana chain
 * (LiteSVM: the real runtime); the local facilitator verifies it, co-signs it as the fee payer and sends
 * it (x402's own SVM facilitator); the USDC moves to the seller's associated token account.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(FacilitatorTestResource.class)
class X402SolanaTest {

    @TestHTTPResource("/api/x402/invoice")
    URL invoiceUrl;

    @TestHTTPResource("/api/x402/settle")
    URL settleUrl;

    @Inject
    Pool pool;

    @Inject
    dev.agentpay.invoice.x402.service.X402Reconciler reconciler;

    @Test
    void theV1ClientPaysBothEndpointsOnSolana() throws Exception {
        BigInteger before = sellerUsdc();
        long invoices = x402Invoices();
        JsonNode paid = X402Client.runSolana(X402Client.solana("fetch-v1", invoiceUrl.toString(), "{\"recipient\": \"Sol\"}"));
        assertThat(paid.path("status").asInt()).as(paid.toString()).isEqualTo(200);
        JsonNode receipt = paid.path("paymentResponse");
        assertThat(receipt.path("success").asBoolean()).isTrue();
        assertThat(receipt.path("network").asText()).isEqualTo("solana");
        assertThat(receipt.path("payer").asText()).isEqualTo(SharedServers.solanaPayer().address());
        String signature = receipt.path("transaction").asText();
        assertThat(transactionSucceeded(signature)).as("the settle transaction is on the chain").isTrue();
        String id = paid.path("body").path("result").path("id").asText();
        assertThat(x402Invoices()).isEqualTo(invoices + 1);
        assertThat(paymentOf(signature)).isEqualTo("COMPLETED:" + id);

        JsonNode checked = X402Client.runSolana(X402Client.solana("fetch-v1", settleUrl.toString(), "{\"invoice_id\": \"" + id + "\"}"));
        assertThat(checked.path("status").asInt()).as(checked.toString()).isEqualTo(200);
        assertThat(checked.path("body").path("result").path("id").asText()).isEqualTo(id);
        assertThat(sellerUsdc().subtract(before)).isEqualTo(BigInteger.valueOf(15_000));
    }

    @Test
    void theV2ClientPaysOnSolana() throws Exception {
        BigInteger before = sellerUsdc();
        long invoices = x402Invoices();
        JsonNode paid = X402Client.runSolana(X402Client.solana("fetch-v2", invoiceUrl.toString(), "{\"recipient\": \"Sol2\"}"));
        assertThat(paid.path("status").asInt()).as(paid.toString()).isEqualTo(200);
        JsonNode receipt = paid.path("paymentResponse");
        assertThat(receipt.path("success").asBoolean()).as(paid.toString()).isTrue();
        assertThat(transactionSucceeded(receipt.path("transaction").asText())).isTrue();
        assertThat(x402Invoices()).isEqualTo(invoices + 1);
        assertThat(sellerUsdc().subtract(before)).isEqualTo(BigInteger.valueOf(10_000));
    }

    @Test
    void aSolanaPaymentPaysOnceAndAReplayIsRefused() throws Exception {
        String header = X402Client.runSolana(X402Client.solana("sign-v1", invoiceUrl.toString(), "{}")).path("header").asText();
        Response first = given().header("X-PAYMENT", header).contentType(ContentType.JSON).body("{}").post("/api/x402/invoice");
        assertThat(first.statusCode()).as(first.asString()).isEqualTo(200);
        long invoices = x402Invoices();
        BigInteger balance = sellerUsdc();
        Response replay = given().header("X-PAYMENT", header).contentType(ContentType.JSON).body("{}").post("/api/x402/invoice");
        assertThat(replay.statusCode()).as(replay.asString()).isEqualTo(402);
        assertThat(replay.jsonPath().getString("errorCode")).isEqualTo("payment_already_used");
        assertThat(x402Invoices()).isEqualTo(invoices);
        assertThat(sellerUsdc()).isEqualTo(balance);
    }

    @Test
    void facilitatorDownIs503AndNoInvoiceThenTheSameSolanaPaymentWorks() throws Exception {
        String header = X402Client.runSolana(X402Client.solana("sign-v1", invoiceUrl.toString(), "{}")).path("header").asText();
        long invoices = x402Invoices();
        BigInteger balance = sellerUsdc();
        FacilitatorTestResource.stopFacilitator();
        try {
            given().header("X-PAYMENT", header).contentType(ContentType.JSON).body("{}")
                    .post("/api/x402/invoice").then().statusCode(503)
                    .body("success", org.hamcrest.Matchers.equalTo(false))
                    .body("error.code", org.hamcrest.Matchers.equalTo("facilitator_unavailable"));
            assertThat(x402Invoices()).isEqualTo(invoices);
            assertThat(sellerUsdc()).isEqualTo(balance);
        } finally {
            FacilitatorTestResource.startFacilitator();
        }
        Response ok = given().header("X-PAYMENT", header).contentType(ContentType.JSON).body("{}").post("/api/x402/invoice");
        assertThat(ok.statusCode()).as(ok.asString()).isEqualTo(200);
        assertThat(x402Invoices()).isEqualTo(invoices + 1);
    }

    @Test
    void aLostSolanaSettleOutcomeIsResolvedFromTheChain() throws Exception {
        // A payment the facilitator did settle on chain, but whose answer never came back.
        JsonNode signed = X402Client.runSolana(X402Client.solana("sign-v1", invoiceUrl.toString(), "{}"));
        JsonNode payment = X402Client.JSON.readTree(java.util.Base64.getDecoder().decode(signed.path("header").asText()));
        com.fasterxml.jackson.databind.node.ObjectNode settle = X402Client.JSON.createObjectNode();
        settle.put("x402Version", 1);
        settle.set("paymentPayload", payment);
        settle.set("paymentRequirements", signed.get("requirement"));
        JsonNode answer = postJson(FacilitatorTestResource.facilitatorUrl() + "/settle", settle.toString());
        assertThat(answer.path("success").asBoolean()).as(answer.toString()).isTrue();
        String landed = answer.path("transaction").asText();
        // The facilitator answers at confirmed; the reconciler reads finalized transactions.
        await("the payment finalized").atMost(java.time.Duration.ofSeconds(15))
                .until(() -> rpc("getSignatureStatuses", java.util.List.of(landed)).path("result").path("value").get(0)
                        .path("confirmationStatus").asText().equals("finalized"));
        UUID used = insertSettling(payerSignature(payment.path("payload").path("transaction").asText()));
        // A payment that never reached the chain: its blockhash is long expired.
        UUID unused = insertSettling(org.p2p.solanaj.utils.Base58.encode(new byte[64]).replace('1', '2'));
        long invoices = x402Invoices();

        reconciler.run().await().indefinitely();

        assertThat(stateAndTx(used)).isEqualTo("COMPLETED:" + landed);
        assertThat(stateAndTx(unused)).startsWith("FAILED:");
        assertThat(x402Invoices()).isEqualTo(invoices + 1);
        reconciler.run().await().indefinitely();
        assertThat(x402Invoices()).isEqualTo(invoices + 1);
    }

    // ---------------------------------------------------------------- helpers

    /** The payer's signature of a partially signed wire transaction: the first non-empty one. */
    private static String payerSignature(String base64Tx) {
        byte[] tx = java.util.Base64.getDecoder().decode(base64Tx);
        int count = tx[0]; // fewer than 128 signatures: one byte of compact-u16
        for (int s = 0; s < count; s++) {
            byte[] sig = java.util.Arrays.copyOfRange(tx, 1 + 64 * s, 1 + 64 * (s + 1));
            for (byte b : sig) {
                if (b != 0) {
                    return org.p2p.solanaj.utils.Base58.encode(sig);
                }
            }
        }
        throw new AssertionError("unsigned transaction");
    }

    /** A SETTLING Solana payment as a crash between /settle and the commit leaves it, claimed 10 minutes ago. */
    private UUID insertSettling(String payerSignature) {
        UUID id = UUID.randomUUID();
        pool.preparedQuery("insert into x402_payment (id, payment_key, capability, x402_version, network, payer, pay_to,"
                        + " asset, amount_atomic, valid_before, nonce, state, request, created_at, updated_at)"
                        + " values ($1, $2, 'invoice', 1, 'solana', null, $3, $4, 10000, null, null, 'SETTLING',"
                        + " '{\"amount\":\"0.01\",\"recipient\":\"LostSol\"}'::jsonb, now() - interval '10 minutes',"
                        + " now() - interval '10 minutes')")
                .execute(Tuple.of(id, "svm:" + payerSignature, FacilitatorTestResource.SOLANA_SELLER, SolanaNode.USDC_MINT))
                .await().indefinitely();
        return id;
    }

    private String stateAndTx(UUID id) {
        var r = pool.preparedQuery("select state, tx_hash from x402_payment where id = $1").execute(Tuple.of(id))
                .await().indefinitely().iterator().next();
        return r.getString("state") + ":" + r.getString("tx_hash");
    }

    private static JsonNode postJson(String url, String body) throws Exception {
        var r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        return X402Client.JSON.readTree(r.body());
    }

    private static JsonNode rpc(String method, Object... params) throws Exception {
        String body = X402Client.JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", 1, "method", method, "params", params));
        String res = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(SharedServers.solana().rpcUrl()))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        return X402Client.JSON.readTree(res);
    }

    /** The seller's USDC on the local chain (0 before its associated token account exists). */
    private static BigInteger sellerUsdc() throws Exception {
        JsonNode accounts = rpc("getTokenAccountsByOwner", FacilitatorTestResource.SOLANA_SELLER,
                Map.of("mint", SolanaNode.USDC_MINT), Map.of("encoding", "jsonParsed", "commitment", "processed")).path("result").path("value");
        BigInteger sum = BigInteger.ZERO;
        for (JsonNode a : accounts) {
            sum = sum.add(new BigInteger(a.path("account").path("data").path("parsed").path("info").path("tokenAmount").path("amount").asText()));
        }
        return sum;
    }

    private static boolean transactionSucceeded(String signature) throws Exception {
        JsonNode tx = rpc("getTransaction", signature, Map.of("encoding", "jsonParsed", "commitment", "confirmed",
                "maxSupportedTransactionVersion", 0)).path("result");
        return tx.isObject() && tx.path("meta").path("err").isNull();
    }

    private long x402Invoices() {
        return pool.query("select count(*) from invoice where partner_id = 'x402'").execute()
                .await().indefinitely().iterator().next().getLong(0);
    }

    private String paymentOf(String txHash) {
        var rs = pool.preparedQuery("select state, invoice_id from x402_payment where tx_hash = $1").execute(Tuple.of(txHash))
                .await().indefinitely();
        if (rs.size() != 1) {
            return "rows:" + rs.size();
        }
        var r = rs.iterator().next();
        return r.getString("state") + ":" + r.getUUID("invoice_id");
    }
}
