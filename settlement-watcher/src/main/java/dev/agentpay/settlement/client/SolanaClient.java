package dev.agentpay.settlement.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.rpc.JsonRpcException;
import dev.agentpay.commons.rpc.JsonRpcHttp;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Solana JSON-RPC with Jackson over the platform's non-blocking transport ({@link JsonRpcHttp#call}), each
 * call a {@link Uni}. solanaj (1.27.3) is not used here: its
 * {@code ConfirmedTransaction} models only the {@code json} encoding (account keys as strings, compiled
 * instructions with base58 data, token balances without owner), so it cannot read the
 * {@code jsonParsed} answers the watcher relies on (parsed spl-token and spl-memo instructions).
 * Every call reads at the configured commitment ({@code finalized} by default); failures surface as
 * {@link RpcException} (this client's own).
 */
public class SolanaClient implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final JsonRpcHttp http;
    private final String commitment;

    public SolanaClient(Vertx vertx, String rpcUrl, Duration timeout, String commitment) {
        this.commitment = commitment;
        this.http = new JsonRpcHttp(vertx, rpcUrl, timeout, EvmClient.USER_AGENT);
    }

    /** The owner's token accounts of this mint. */
    public Uni<List<String>> tokenAccounts(String owner, String mint) {
        ObjectNode filter = JSON.createObjectNode().put("mint", mint);
        ObjectNode cfg = JSON.createObjectNode().put("encoding", "jsonParsed").put("commitment", commitment);
        return call("getTokenAccountsByOwner", JSON.createArrayNode().add(owner).add(filter).add(cfg)).map(res -> {
            List<String> out = new ArrayList<>();
            res.path("value").forEach(v -> out.add(v.path("pubkey").asText()));
            return out;
        });
    }

    /** Signatures touching {@code address}, newest first, strictly after {@code until} and before {@code before}. */
    public Uni<JsonNode> signatures(String address, String until, String before, int limit) {
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
    public Uni<JsonNode> transaction(String signature) {
        ObjectNode cfg = JSON.createObjectNode().put("encoding", "jsonParsed").put("commitment", commitment)
                .put("maxSupportedTransactionVersion", 0);
        return call("getTransaction", JSON.createArrayNode().add(signature).add(cfg));
    }

    public Uni<Long> slot() {
        return call("getSlot", JSON.createArrayNode().add(JSON.createObjectNode().put("commitment", commitment))).map(JsonNode::asLong);
    }

    private Uni<JsonNode> call(String method, ArrayNode params) {
        return http.call(method, params)
                .onFailure(JsonRpcException.class).transform(e -> new RpcException("solana " + e.getMessage(), e));
    }

    @Override
    public void close() {
        http.close();
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
