package dev.agentpay.invoice.x402.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Asks a Solana JSON-RPC endpoint whether an x402 payment's transaction landed, when a settle's outcome
 * was lost: the transaction's own signature is the facilitator's (it signs as fee payer after this
 * service has seen the payload), so it is found by the payer's signature among the finalized
 * transactions of the seller's USDC token accounts since the payment was claimed. Blocking JSON-RPC on
 * a worker thread (the reconciler's background work); each call retried twice.
 */
@ApplicationScoped
public class SolanaRpcClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PAGE = 1000;
    private static final int MAX_PAGES = 20;
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** Where a transaction signed by the payer landed: its signature and whether it succeeded. */
    public record Landing(String signature, boolean succeeded) {
    }

    /**
     * The finalized transaction into {@code owner}'s {@code mint} token accounts that carries
     * {@code payerSignature}, looking back to {@code since}; empty when none landed.
     */
    public Uni<Optional<Landing>> find(String rpcUrl, String owner, String mint, String payerSignature, Instant since) {
        return Uni.createFrom().item(() -> lookup(rpcUrl, owner, mint, payerSignature, since))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(2)).atMost(2);
    }

    private Optional<Landing> lookup(String rpcUrl, String owner, String mint, String payerSignature, Instant since) {
        ObjectNode filter = JSON.createObjectNode().put("mint", mint);
        ObjectNode enc = JSON.createObjectNode().put("encoding", "base64").put("commitment", "finalized");
        JsonNode accounts = call(rpcUrl, "getTokenAccountsByOwner", JSON.createArrayNode().add(owner).add(filter).add(enc)).path("value");
        for (JsonNode account : accounts) {
            String before = null;
            for (int page = 0; page < MAX_PAGES; page++) {
                ObjectNode cfg = JSON.createObjectNode().put("limit", PAGE).put("commitment", "finalized");
                if (before != null) {
                    cfg.put("before", before);
                }
                JsonNode sigs = call(rpcUrl, "getSignaturesForAddress",
                        JSON.createArrayNode().add(account.path("pubkey").asText()).add(cfg));
                List<String> candidates = new ArrayList<>();
                boolean older = false;
                for (JsonNode s : sigs) {
                    if (s.hasNonNull("blockTime") && Instant.ofEpochSecond(s.path("blockTime").asLong()).isBefore(since)) {
                        older = true;
                        break;
                    }
                    candidates.add(s.path("signature").asText());
                }
                for (String sig : candidates) {
                    ObjectNode txCfg = JSON.createObjectNode().put("encoding", "json").put("commitment", "finalized")
                            .put("maxSupportedTransactionVersion", 0);
                    JsonNode tx = call(rpcUrl, "getTransaction", JSON.createArrayNode().add(sig).add(txCfg));
                    for (JsonNode s : tx.path("transaction").path("signatures")) {
                        if (payerSignature.equals(s.asText())) {
                            return Optional.of(new Landing(sig, tx.path("meta").path("err").isNull()));
                        }
                    }
                }
                if (older || sigs.size() < PAGE) {
                    break;
                }
                before = sigs.get(sigs.size() - 1).path("signature").asText();
            }
        }
        return Optional.empty();
    }

    private JsonNode call(String rpcUrl, String method, ArrayNode params) {
        ObjectNode req = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", 1).put("method", method);
        req.set("params", params);
        try {
            HttpResponse<String> res = http.send(HttpRequest.newBuilder(URI.create(rpcUrl)).timeout(TIMEOUT)
                    .header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(req.toString())).build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = JSON.readTree(res.body());
            if (res.statusCode() / 100 != 2 || body.hasNonNull("error")) {
                throw new IllegalStateException("solana " + method + " failed: HTTP " + res.statusCode() + " " + body.path("error"));
            }
            return body.path("result");
        } catch (IOException e) {
            throw new IllegalStateException("solana " + method + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("solana " + method + ": interrupted", e);
        }
    }
}
