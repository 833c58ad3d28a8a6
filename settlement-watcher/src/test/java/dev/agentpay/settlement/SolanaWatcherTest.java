package dev.agentpay.settlement;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.commons.events.ChainTransferEvent;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Solana watcher against the JSON-RPC stand-in (jsonParsed transferChecked + memo). */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(ChainsTestResource.class)
class SolanaWatcherTest {

    static final String USDC = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
    static final String PAYER = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T";
    static final ObjectMapper JSON = new ObjectMapper();

    TransferEvents events;

    @BeforeEach
    void consume() {
        events = new TransferEvents(ConfigProvider.getConfig().getValue("kafka.bootstrap.servers", String.class));
    }

    @AfterEach
    void close() {
        events.close();
    }

    static JsonNode rpc(String method, Object... params) throws Exception {
        String url = ConfigProvider.getConfig().getValue("chains.solana.rpc-url", String.class);
        String body = JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", 1, "method", method, "params", params));
        String res = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        return JSON.readTree(res);
    }

    static JsonNode inject(String mint, String to, long amount, String memo) throws Exception {
        var p = new java.util.HashMap<String, Object>(Map.of("mint", mint, "from", PAYER, "to", to, "amount", Long.toString(amount)));
        if (memo != null) {
            p.put("memo", memo);
        }
        return rpc("standin_addTransfer", p).get("result");
    }

    @Test
    void aUsdcTransferWithAMemoIsPublishedWithTheMemo() throws Exception {
        JsonNode sent = inject(USDC, ChainsTestResource.SOLANA_SELLER, 2_500_000, "0f8fad5b-d9cb-469f-a165-70867728950e");
        String sig = sent.get("signature").asText();
        ChainTransferEvent e = events.await(ev -> ev.txHash().equals(sig), 1, Duration.ofSeconds(30)).get(0);
        assertThat(e.type()).isEqualTo(ChainTransferEvent.DETECTED);
        assertThat(e.chain()).isEqualTo("solana");
        assertThat(e.memo()).isEqualTo("0f8fad5b-d9cb-469f-a165-70867728950e");
        assertThat(e.token()).isEqualTo(USDC);
        assertThat(e.to()).isEqualTo(ChainsTestResource.SOLANA_SELLER);
        assertThat(e.from()).isEqualTo(PAYER);
        assertThat(e.amount()).isEqualTo(BigInteger.valueOf(2_500_000));
        assertThat(e.block()).isEqualTo(sent.get("slot").asLong());
        assertThat(e.index()).isZero();
        assertThat(e.source()).isEqualTo("solana-detector");
        assertThat(e.aggregateId()).isEqualTo(ChainTransferEvent.transferId("solana", sig, 0));
    }

    @Test
    void otherMintsAndOtherWalletsAreNotPublishedAndNothingTwice() throws Exception {
        String otherMint = inject("So11111111111111111111111111111111111111112", ChainsTestResource.SOLANA_SELLER, 2_500_000, "x")
                .get("signature").asText();
        String otherWallet = inject(USDC, PAYER, 2_500_000, "y").get("signature").asText();
        String wrongMemo = inject(USDC, ChainsTestResource.SOLANA_SELLER, 1_000, "not-an-invoice").get("signature").asText();
        String sentinel = inject(USDC, ChainsTestResource.SOLANA_SELLER, 7, null).get("signature").asText();
        events.await(e -> e.txHash().equals(sentinel), 1, Duration.ofSeconds(30));
        assertThat(events.matching(e -> e.txHash().equals(otherMint) || e.txHash().equals(otherWallet), Duration.ofSeconds(1))).isEmpty();
        // a wrong memo is still a payment to the seller: published, and invoice-service records it as unmatched
        assertThat(events.matching(e -> e.txHash().equals(wrongMemo), Duration.ZERO)).singleElement()
                .satisfies(e -> assertThat(e.memo()).isEqualTo("not-an-invoice"));
        assertThat(events.matching(e -> e.txHash().equals(sentinel), Duration.ZERO)).hasSize(1)
                .allSatisfy(e -> assertThat(e.memo()).isNull());
    }

    @Test
    void theStandInAnswersInSolanasDocumentedShapes() throws Exception {
        JsonNode sent = inject(USDC, ChainsTestResource.SOLANA_SELLER, 1_500_000, "shape-check");
        String sig = sent.get("signature").asText();
        assertThat(rpc("getHealth").get("result").asText()).isEqualTo("ok");
        assertThat(rpc("getSlot").get("result").asLong()).isGreaterThanOrEqualTo(sent.get("slot").asLong());
        JsonNode accounts = rpc("getTokenAccountsByOwner", ChainsTestResource.SOLANA_SELLER, Map.of("mint", USDC),
                Map.of("encoding", "jsonParsed")).get("result");
        assertThat(accounts.path("context").path("slot").isNumber()).isTrue();
        JsonNode acc = accounts.path("value").get(0);
        assertThat(acc.path("account").path("data").path("parsed").path("info").path("owner").asText())
                .isEqualTo(ChainsTestResource.SOLANA_SELLER);
        assertThat(acc.path("account").path("data").path("program").asText()).isEqualTo("spl-token");
        String tokenAccount = acc.path("pubkey").asText();
        JsonNode sigs = rpc("getSignaturesForAddress", tokenAccount, Map.of("limit", 1)).get("result");
        assertThat(sigs.get(0).path("signature").asText()).isEqualTo(sig);
        assertThat(sigs.get(0).path("memo").asText()).isEqualTo("[11] shape-check");
        assertThat(sigs.get(0).path("confirmationStatus").asText()).isEqualTo("finalized");
        assertThat(sigs.get(0).has("err")).isTrue();
        JsonNode tx = rpc("getTransaction", sig, Map.of("encoding", "jsonParsed", "maxSupportedTransactionVersion", 0)).get("result");
        assertThat(tx.path("slot").asLong()).isEqualTo(sent.get("slot").asLong());
        assertThat(tx.path("meta").path("err").isNull()).isTrue();
        JsonNode ins = tx.path("transaction").path("message").path("instructions");
        assertThat(ins.get(0).path("program").asText()).isEqualTo("spl-token");
        assertThat(ins.get(0).path("parsed").path("type").asText()).isEqualTo("transferChecked");
        JsonNode info = ins.get(0).path("parsed").path("info");
        assertThat(info.path("mint").asText()).isEqualTo(USDC);
        assertThat(info.path("destination").asText()).isEqualTo(tokenAccount);
        assertThat(info.path("authority").asText()).isEqualTo(PAYER);
        assertThat(info.path("tokenAmount").path("amount").asText()).isEqualTo("1500000");
        assertThat(info.path("tokenAmount").path("uiAmountString").asText()).isEqualTo("1.5");
        assertThat(ins.get(1).path("program").asText()).isEqualTo("spl-memo");
        assertThat(ins.get(1).path("parsed").asText()).isEqualTo("shape-check");
        assertThat(tx.path("transaction").path("message").path("accountKeys").get(0).has("pubkey")).isTrue();
        assertThat(rpc("noSuchMethod").path("error").path("code").asInt()).isEqualTo(-32601);
        assertThat(rpc("getTransaction", "1111", Map.of("encoding", "jsonParsed")).get("result").isNull()).isTrue();
    }
}
