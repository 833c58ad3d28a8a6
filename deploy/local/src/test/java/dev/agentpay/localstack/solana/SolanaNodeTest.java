package dev.agentpay.localstack.solana;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.localstack.Ports;
import dev.agentpay.localstack.RepoPaths;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The local Solana chain ({@code solana-rpc.mjs} over LiteSVM) as its users meet it: signed transactions
 * executed by the Solana runtime, commitment levels that lag like a cluster's, replays refused, failures
 * recorded, bad requests answered with JSON-RPC errors, and everything kept across a restart.
 */
class SolanaNodeTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final int LAG = 8;
    static final SolanaKeys.Keypair PAYER = SolanaKeys.generate();
    static final SolanaKeys.Keypair SELLER = SolanaKeys.generate();
    static final HttpClient HTTP = HttpClient.newHttpClient();
    static Path dir;
    static Path state;
    static int port;
    static SolanaNode node;

    @BeforeAll
    static void start() {
        dir = RepoPaths.testScratch("solana-node");
        state = dir.resolve("solana.json");
        port = Ports.free();
        node = startNode();
    }

    static SolanaNode startNode() {
        return SolanaNode.start(port, state, dir.resolve("solana.log"), PAYER.secret(), LAG, List.of(), List.of());
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
    }

    static JsonNode rpc(String method, Object... params) throws Exception {
        return raw(JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", 1, "method", method, "params", params)));
    }

    static JsonNode raw(String body) throws Exception {
        return JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(node.rpcUrl())).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    static JsonNode await(Duration timeout, Predicate<JsonNode> done, RpcCall call) {
        return Awaitility.await().atMost(timeout).pollInterval(Duration.ofMillis(50)).until(call::run, done);
    }

    @FunctionalInterface
    interface RpcCall {
        JsonNode run() throws Exception;
    }

    static String usdcOf(String owner) throws Exception {
        JsonNode v = rpc("getTokenAccountsByOwner", owner, Map.of("mint", SolanaNode.USDC_MINT),
                Map.of("encoding", "jsonParsed", "commitment", "processed")).path("result").path("value");
        return v.isEmpty() ? "0" : v.get(0).path("account").path("data").path("parsed").path("info").path("tokenAmount").path("amount").asText();
    }

    @Test
    void genesisHasUsdcAtTheCanonicalMintAndAFundedDevPayer() throws Exception {
        JsonNode mint = rpc("getAccountInfo", SolanaNode.USDC_MINT, Map.of("encoding", "jsonParsed")).path("result").path("value");
        assertThat(mint.path("owner").asText()).isEqualTo("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA");
        assertThat(mint.path("data").path("parsed").path("type").asText()).isEqualTo("mint");
        assertThat(mint.path("data").path("parsed").path("info").path("decimals").asInt()).isEqualTo(6);
        assertThat(rpc("getBalance", PAYER.address()).path("result").path("value").asLong()).isPositive();
        assertThat(new java.math.BigInteger(usdcOf(PAYER.address()))).isGreaterThanOrEqualTo(java.math.BigInteger.valueOf(900_000_000_000L));
        assertThat(rpc("getGenesisHash").path("result").asText()).startsWith("5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp");
        assertThat(rpc("getHealth").path("result").asText()).isEqualTo("ok");
        long s1 = rpc("getSlot", Map.of("commitment", "processed")).path("result").asLong();
        JsonNode later = await(Duration.ofSeconds(5), r -> r.path("result").asLong() > s1,
                () -> rpc("getSlot", Map.of("commitment", "processed")));
        assertThat(later.path("result").asLong()).as("slots advance on the clock").isGreaterThan(s1);
        assertThat(rpc("getSlot", Map.of("commitment", "finalized")).path("result").asLong())
                .isLessThanOrEqualTo(later.path("result").asLong() - LAG);
    }

    @Test
    void aTransactionIsProcessedThenConfirmedThenFinalizedAndAReplayIsRefused() throws Exception {
        SolanaNode.Payment paid = SolanaNode.pay(node.rpcUrl(), PAYER.secret(), SELLER.address(), 1_250_000, "order-1", "--commitment", "processed");
        // just landed: visible as processed, not yet at finalized
        JsonNode finalized = rpc("getTransaction", paid.signature(), Map.of("encoding", "json", "commitment", "finalized",
                "maxSupportedTransactionVersion", 0)).path("result");
        JsonNode status = rpc("getSignatureStatuses", List.of(paid.signature())).path("result").path("value").get(0);
        if (!"finalized".equals(status.path("confirmationStatus").asText())) {
            assertThat(finalized.isNull()).as("not served at finalized before the lag").isTrue();
        }
        JsonNode done = await(Duration.ofSeconds(15),
                r -> "finalized".equals(r.path("result").path("value").get(0).path("confirmationStatus").asText()),
                () -> rpc("getSignatureStatuses", List.of(paid.signature())));
        assertThat(done.path("result").path("value").get(0).path("err").isNull()).isTrue();
        JsonNode tx = rpc("getTransaction", paid.signature(), Map.of("encoding", "base64", "commitment", "finalized",
                "maxSupportedTransactionVersion", 0)).path("result");
        assertThat(tx.path("slot").asLong()).isEqualTo(paid.slot());
        assertThat(usdcOf(SELLER.address())).isEqualTo("1250000");
        // the very same signed bytes again
        JsonNode replay = rpc("sendTransaction", tx.path("transaction").get(0).asText(), Map.of("encoding", "base64"));
        assertThat(replay.path("error").path("data").path("err").asText()).isEqualTo("AlreadyProcessed");
        assertThat(usdcOf(SELLER.address())).isEqualTo("1250000");
        assertThat(rpc("getSignaturesForAddress", paid.destination(), Map.of("commitment", "processed")).path("error").path("code").asInt())
                .isEqualTo(-32602);
    }

    @Test
    void aFailedTransactionLandsWithItsErrorAndMovesNothing() throws Exception {
        SolanaKeys.Keypair other = SolanaKeys.generate();
        SolanaNode.Payment failed = SolanaNode.pay(node.rpcUrl(), PAYER.secret(), other.address(), 5, "too-much", "--fail");
        assertThat(failed.failed()).isTrue();
        assertThat(failed.err()).contains("InstructionError");
        JsonNode tx = await(Duration.ofSeconds(15), r -> r.path("result").isObject(),
                () -> rpc("getTransaction", failed.signature(), Map.of("encoding", "jsonParsed", "maxSupportedTransactionVersion", 0)));
        assertThat(tx.path("result").path("meta").path("err").path("InstructionError").isArray()).isTrue();
        assertThat(tx.path("result").path("meta").path("logMessages").toString()).contains("insufficient funds");
        assertThat(usdcOf(other.address())).isEqualTo("0");
    }

    @Test
    void badRequestsAreJsonRpcErrors() throws Exception {
        assertThat(rpc("noSuchMethod").path("error").path("code").asInt()).isEqualTo(-32601);
        assertThat(raw("{not json").path("error").path("code").asInt()).isEqualTo(-32700);
        assertThat(rpc("sendTransaction", "AAAA", Map.of("encoding", "base64")).path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(rpc("getBalance", "not-a-key").path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(rpc("getTransaction", "1111", Map.of("encoding", "jsonParsed")).path("result").isNull()).isTrue();
        JsonNode blockhash = rpc("getLatestBlockhash").path("result").path("value");
        assertThat(blockhash.path("blockhash").asText()).isNotBlank();
        assertThat(blockhash.path("lastValidBlockHeight").asLong()).isPositive();
    }

    @Test
    void stateIsKeptAcrossARestart() throws Exception {
        SolanaKeys.Keypair kept = SolanaKeys.generate();
        SolanaNode.Payment paid = SolanaNode.pay(node.rpcUrl(), PAYER.secret(), kept.address(), 777, "before-restart");
        long slot = rpc("getSlot", Map.of("commitment", "processed")).path("result").asLong();
        String payerUsdc = usdcOf(PAYER.address());
        node.close();
        assertThat(Files.exists(state)).isTrue();
        assertThat(Files.exists(state.resolveSibling("solana.json.tmp"))).isFalse();
        node = startNode();
        assertThat(usdcOf(kept.address())).isEqualTo("777");
        assertThat(usdcOf(PAYER.address())).isEqualTo(payerUsdc);
        assertThat(rpc("getSlot", Map.of("commitment", "processed")).path("result").asLong()).isGreaterThanOrEqualTo(slot);
        JsonNode tx = rpc("getTransaction", paid.signature(), Map.of("encoding", "jsonParsed", "commitment", "confirmed",
                "maxSupportedTransactionVersion", 0)).path("result");
        assertThat(tx.path("slot").asLong()).isEqualTo(paid.slot());
        assertThat(tx.path("transaction").path("message").path("instructions").get(2).path("parsed").asText()).isEqualTo("before-restart");
        // and it goes on executing transactions
        SolanaNode.Payment after = SolanaNode.pay(node.rpcUrl(), PAYER.secret(), kept.address(), 3, null);
        assertThat(after.failed()).isFalse();
        assertThat(usdcOf(kept.address())).isEqualTo("780");
    }
}
