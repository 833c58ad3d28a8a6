package dev.agentpay.localstack.solana;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The stand-in on a free port: injection, paging of signatures, and error answers. */
class SolanaStandInTest {

    static final String MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
    static final String SELLER = "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV";
    static final String PAYER = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T";
    static final ObjectMapper JSON = new ObjectMapper();
    static SolanaStandIn standIn;

    @BeforeAll
    static void start() {
        standIn = SolanaStandIn.start(0);
    }

    @AfterAll
    static void stop() {
        standIn.close();
    }

    static JsonNode rpc(String method, Object... params) throws Exception {
        String body = JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", 7, "method", method, "params", List.of(params)));
        return JSON.readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(standIn.url()))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    @Test
    void pagesSignaturesNewestFirstWithBeforeAndUntil() throws Exception {
        String account = SolanaStandIn.tokenAccount(SELLER, MINT);
        String a = rpc("standin_addTransfer", Map.of("mint", MINT, "from", PAYER, "to", SELLER, "amount", "1")).path("result").path("signature").asText();
        String b = standIn.addTransfer(MINT, PAYER, SELLER, java.math.BigInteger.TWO, "m", 6).signature();
        String c = standIn.addTransfer(MINT, PAYER, SELLER, java.math.BigInteger.TEN, null, 6).signature();
        JsonNode all = rpc("getSignaturesForAddress", account, Map.of()).path("result");
        assertThat(all.findValuesAsText("signature")).containsSubsequence(c, b, a);
        JsonNode page = rpc("getSignaturesForAddress", account, Map.of("limit", 1, "before", c)).path("result");
        assertThat(page.findValuesAsText("signature")).containsExactly(b);
        JsonNode since = rpc("getSignaturesForAddress", account, Map.of("until", a)).path("result");
        assertThat(since.findValuesAsText("signature")).containsExactly(c, b);
        assertThat(rpc("getSignaturesForAddress", PAYER, Map.of()).path("result").size()).isGreaterThanOrEqualTo(3);
        JsonNode tx = rpc("getTransaction", b, Map.of("encoding", "jsonParsed")).path("result");
        assertThat(tx.at("/transaction/message/instructions/1/parsed").asText()).isEqualTo("m");
        assertThat(tx.at("/meta/postTokenBalances/1/owner").asText()).isEqualTo(SELLER);
        assertThat(tx.at("/meta/postTokenBalances/1/uiTokenAmount/amount").asText()).isEqualTo("3");
    }

    @Test
    void answersJsonRpcErrors() throws Exception {
        assertThat(rpc("nope").path("error").path("code").asInt()).isEqualTo(-32601);
        assertThat(rpc("standin_addTransfer", Map.of("mint", MINT)).path("error").path("code").asInt()).isEqualTo(-32602);
        assertThat(rpc("getHealth").path("result").asText()).isEqualTo("ok");
        assertThat(rpc("getSlot").path("id").asInt()).isEqualTo(7);
    }
}
