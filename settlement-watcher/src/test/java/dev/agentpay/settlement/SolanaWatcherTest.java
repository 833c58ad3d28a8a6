package dev.agentpay.settlement;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.commons.events.ChainTransferEvent;
import dev.agentpay.localstack.solana.SolanaNode;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.localstack.testing.SharedServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The Solana watcher against the local chain (LiteSVM behind JSON-RPC): every payment is a real
 * transaction signed by the payer's key and executed by the Solana runtime (an idempotent ATA create,
 * an SPL {@code TransferChecked}, an spl-memo), read back at {@code finalized}.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(ChainsTestResource.class)
class SolanaWatcherTest {

    static final String USDC = SolanaNode.USDC_MINT;
    static final ObjectMapper JSON = new ObjectMapper();

    TransferEvents events;

    @BeforeEach
    void consume() {
        events = new TransferEvents(org.eclipse.microprofile.config.ConfigProvider.getConfig()
                .getValue("kafka.bootstrap.servers", String.class));
    }

    @AfterEach
    void close() {
        events.close();
    }

    static SolanaNode.Payment pay(String to, long amount, String memo, String... options) {
        return SolanaNode.pay(SharedServers.solana().rpcUrl(), SharedServers.solanaPayer().secret(), to, amount, memo, options);
    }

    static JsonNode rpc(String method, Object... params) throws Exception {
        String body = JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", 1, "method", method, "params", params));
        String res = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(SharedServers.solana().rpcUrl()))
                .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        return JSON.readTree(res);
    }

    @Test
    void aSignedUsdcTransferWithAMemoIsPublishedWithTheMemoOnceFinalized() {
        String memo = UUID.randomUUID().toString();
        SolanaNode.Payment paid = pay(ChainsTestResource.SOLANA_SELLER, 2_500_000, memo);
        assertThat(paid.failed()).isFalse();
        ChainTransferEvent e = events.await(ev -> ev.txHash().equals(paid.signature()), 1, Duration.ofSeconds(30)).get(0);
        assertThat(e.type()).isEqualTo(ChainTransferEvent.DETECTED);
        assertThat(e.chain()).isEqualTo("solana");
        assertThat(e.memo()).isEqualTo(memo);
        assertThat(e.token()).isEqualTo(USDC);
        assertThat(e.to()).isEqualTo(ChainsTestResource.SOLANA_SELLER);
        assertThat(e.from()).isEqualTo(SharedServers.solanaPayer().address());
        assertThat(e.amount()).isEqualTo(BigInteger.valueOf(2_500_000));
        assertThat(e.block()).isEqualTo(paid.slot());
        assertThat(e.source()).isEqualTo("solana-detector");
        // instruction 0 is the idempotent ATA create, 1 the TransferChecked
        assertThat(e.index()).isEqualTo(1);
        assertThat(e.aggregateId()).isEqualTo(ChainTransferEvent.transferId("solana", paid.signature(), 1));
    }

    @Test
    void failedTransactionsOtherMintsOtherWalletsAndNothingTwice() {
        SolanaNode.Payment failed = pay(ChainsTestResource.SOLANA_SELLER, 1_000, "fails", "--fail");
        assertThat(failed.failed()).as("landed and failed on chain").isTrue();
        SolanaNode.Payment otherMint = pay(ChainsTestResource.SOLANA_SELLER, 2_500_000, "other-mint", "--new-mint");
        assertThat(otherMint.mint()).isNotEqualTo(USDC);
        SolanaNode.Payment otherWallet = pay(SharedServers.solanaFeePayer().address(), 2_500_000, "other-wallet");
        SolanaNode.Payment noMemo = pay(ChainsTestResource.SOLANA_SELLER, 7, null);
        events.await(e -> e.txHash().equals(noMemo.signature()), 1, Duration.ofSeconds(30));
        events.noneDuring(e -> e.txHash().equals(failed.signature()) || e.txHash().equals(otherMint.signature())
                || e.txHash().equals(otherWallet.signature()), Duration.ofSeconds(2));
        // no memo is still a payment to the seller: published without one, and invoice-service matches nothing to it
        assertThat(events.matching(e -> e.txHash().equals(noMemo.signature()))).hasSize(1)
                .allSatisfy(e -> assertThat(e.memo()).isNull());
    }

    @Test
    void anX402PaymentIsPublishedWithoutItsMemoSoItPaysNoInvoice() {
        // The payer writes the memo of an x402 payment (x402's clients add one); the facilitator pays the fees.
        String invoiceMemo = UUID.randomUUID().toString();
        SolanaNode.Payment x402 = pay(ChainsTestResource.SOLANA_SELLER, 10_000, invoiceMemo,
                "--fee-payer", SharedServers.solanaFeePayer().secret());
        assertThat(x402.failed()).isFalse();
        ChainTransferEvent e = events.await(ev -> ev.txHash().equals(x402.signature()), 1, Duration.ofSeconds(30)).get(0);
        assertThat(e.amount()).isEqualTo(BigInteger.valueOf(10_000));
        assertThat(e.memo()).as("never attributable to an invoice").isNull();
    }

    @Test
    void theChainAnswersInSolanasDocumentedShapes() throws Exception {
        SolanaNode.Payment paid = pay(ChainsTestResource.SOLANA_SELLER, 1_500_000, "shape-check", "--commitment", "finalized");
        String sig = paid.signature();
        assertThat(rpc("getHealth").get("result").asText()).isEqualTo("ok");
        assertThat(rpc("getSlot").get("result").asLong()).isGreaterThanOrEqualTo(paid.slot());
        JsonNode accounts = rpc("getTokenAccountsByOwner", ChainsTestResource.SOLANA_SELLER, Map.of("mint", USDC),
                Map.of("encoding", "jsonParsed")).get("result");
        JsonNode acc = accounts.path("value").get(0);
        assertThat(acc.path("pubkey").asText()).isEqualTo(paid.destination());
        assertThat(acc.path("account").path("data").path("parsed").path("info").path("owner").asText())
                .isEqualTo(ChainsTestResource.SOLANA_SELLER);
        assertThat(acc.path("account").path("data").path("program").asText()).isEqualTo("spl-token");
        JsonNode sigs = rpc("getSignaturesForAddress", paid.destination(), Map.of("limit", 1)).get("result");
        assertThat(sigs.get(0).path("signature").asText()).isEqualTo(sig);
        assertThat(sigs.get(0).path("memo").asText()).isEqualTo("[11] shape-check");
        assertThat(sigs.get(0).path("confirmationStatus").asText()).isEqualTo("finalized");
        JsonNode tx = rpc("getTransaction", sig, Map.of("encoding", "jsonParsed", "maxSupportedTransactionVersion", 0)).get("result");
        assertThat(tx.path("slot").asLong()).isEqualTo(paid.slot());
        assertThat(tx.path("meta").path("err").isNull()).isTrue();
        assertThat(tx.path("meta").path("logMessages").toString()).contains("Program log: Memo (len 11)");
        JsonNode post = tx.path("meta").path("postTokenBalances");
        assertThat(post.toString()).contains(ChainsTestResource.SOLANA_SELLER);
        JsonNode ins = tx.path("transaction").path("message").path("instructions");
        assertThat(ins.get(1).path("program").asText()).isEqualTo("spl-token");
        assertThat(ins.get(1).path("parsed").path("type").asText()).isEqualTo("transferChecked");
        JsonNode info = ins.get(1).path("parsed").path("info");
        assertThat(info.path("mint").asText()).isEqualTo(USDC);
        assertThat(info.path("destination").asText()).isEqualTo(paid.destination());
        assertThat(info.path("authority").asText()).isEqualTo(SharedServers.solanaPayer().address());
        assertThat(info.path("tokenAmount").path("uiAmountString").asText()).isEqualTo("1.5");
        assertThat(ins.get(2).path("program").asText()).isEqualTo("spl-memo");
        assertThat(ins.get(2).path("parsed").asText()).isEqualTo("shape-check");
        assertThat(rpc("noSuchMethod").path("error").path("code").asInt()).isEqualTo(-32601);
        assertThat(rpc("getTransaction", "1111", Map.of("encoding", "jsonParsed")).get("result").isNull()).isTrue();
    }
}
