package dev.agentpay.settlement.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Solana JSON-RPC over plain HTTP with Jackson. solanaj (1.27.3) is not used here: its
 * {@code ConfirmedTransaction} models only the {@code json} encoding (account keys as strings, compiled
 * instructions with base58 data, token balances without owner), so it cannot read the
 * {@code jsonParsed} answers the watcher relies on (parsed spl-token and spl-memo instructions).
 * Every call reads at the configured commitment ({@code finalized} by default); failures surface as
 * {@link RpcException} (this client's own).
 */
public class SolanaClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http;
    private final URI uri;
    private final Duration timeout;
    private final AtomicLong ids = new AtomicLong();

    private final String commitment;

    public SolanaClient(String rpcUrl, Duration timeout, String commitment) {
        this.commitment = commitment;
        this.uri = URI.create(rpcUrl);
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /** The owner's token accounts of this mint. */
    public List<String> tokenAccounts(String owner, String mint) {
        ObjectNode filter = JSON.createObjectNode().put("mint", mint);
        ObjectNode cfg = JSON.createObjectNode().put("encoding", "jsonParsed").put("commitment", commitment);
        JsonNode res = call("getTokenAccountsByOwner", JSON.createArrayNode().add(owner).add(filter).add(cfg));
        List<String> out = new ArrayList<>();
        res.path("value").forEach(v -> out.add(v.path("pubkey").asText()));
        return out;
    }

    /** Signatures touching {@code address}, newest first, strictly after {@code until} and before {@code before}. */
    public JsonNode signatures(String address, String until, String before, int limit) {
        ObjectNode cfg = JSON.createObjectNode().put("limit", limit).put("commitment", commitment);
        if (until != null) {
            cfg.put("until", until);
        }
        if (before != null) {
            cfg.put("before", before);
        }
        return call("getSignaturesForAddress", JSON.createArrayNode().add(address).add(cfg));
    }

    /** A transaction at the commitment in {@code jsonParsed} encoding, or a JSON null when unknown. */
    public JsonNode transaction(String signature) {
        ObjectNode cfg = JSON.createObjectNode().put("encoding", "jsonParsed").put("commitment", commitment)
                .put("maxSupportedTransactionVersion", 0);
        return call("getTransaction", JSON.createArrayNode().add(signature).add(cfg));
    }

    public long slot() {
        return call("getSlot", JSON.createArrayNode().add(JSON.createObjectNode().put("commitment", commitment))).asLong();
    }

    private JsonNode call(String method, ArrayNode params) {
        ObjectNode req = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", ids.incrementAndGet()).put("method", method);
        req.set("params", params);
        try {
            HttpResponse<String> res = http.send(HttpRequest.newBuilder(uri).timeout(timeout)
                    .header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(req))).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (res.statusCode() / 100 != 2) {
                throw new RpcException("solana " + method + ": HTTP " + res.statusCode());
            }
            JsonNode body = JSON.readTree(res.body());
            if (body.has("error")) {
                throw new RpcException("solana " + method + ": " + body.get("error"));
            }
            return body.path("result");
        } catch (IOException e) {
            throw new RpcException("solana " + method + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RpcException("solana " + method + ": interrupted", e);
        }
    }

    /** A failed Solana JSON-RPC call (transport, HTTP status or JSON-RPC error). */
    public static class RpcException extends RuntimeException {
        public RpcException(String message) {
            super(message);
        }

        public RpcException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
