package dev.agentpay.invoice.x402.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.rpc.JsonRpcEndpoints;
import dev.agentpay.commons.rpc.JsonRpcException;
import dev.agentpay.commons.rpc.JsonRpcHttp;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Asks a Solana JSON-RPC endpoint whether an x402 payment's transaction landed, when a settle's outcome
 * was lost: the transaction's own signature is the facilitator's (it signs as fee payer after this
 * service has seen the payload), so it is found by the payer's signature among the finalized
 * transactions of the seller's USDC token accounts since the payment was claimed. Non-blocking JSON-RPC
 * (the platform's {@link JsonRpcHttp}), one call after another; the whole search retried twice.
 */
@ApplicationScoped
public class SolanaRpcClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PAGE = 1000;
    private static final int MAX_PAGES = 20;

    private final JsonRpcEndpoints endpoints;

    // A constructor, not @PostConstruct: the endpoint cache is the bean's whole state, built once into a final field.
    @Inject
    public SolanaRpcClient(Vertx vertx) {
        this.endpoints = new JsonRpcEndpoints(url -> new JsonRpcHttp(vertx, url, Duration.ofSeconds(2), Duration.ofSeconds(10), null));
    }

    @PreDestroy
    void close() {
        endpoints.close();
    }

    /** Where a transaction signed by the payer landed: its signature and whether it succeeded. */
    public record Landing(String signature, boolean succeeded) {
    }

    /**
     * The finalized transaction into {@code owner}'s {@code mint} token accounts that carries
     * {@code payerSignature}, looking back to {@code since}; empty when none landed.
     */
    public Uni<Optional<Landing>> find(String rpcUrl, String owner, String mint, String payerSignature, Instant since) {
        JsonRpcHttp http = endpoints.at(rpcUrl);
        ObjectNode filter = JSON.createObjectNode().put("mint", mint);
        ObjectNode enc = JSON.createObjectNode().put("encoding", "base64").put("commitment", "finalized");
        return Uni.createFrom().deferred(() -> call(http, "getTokenAccountsByOwner", JSON.createArrayNode().add(owner).add(filter).add(enc)))
                .flatMap(accounts -> {
                    List<String> keys = new ArrayList<>();
                    accounts.path("value").forEach(a -> keys.add(a.path("pubkey").asText()));
                    return first(keys, account -> pages(http, account, payerSignature, since, null, 0));
                })
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(2)).atMost(2);
    }

    /** Page {@code page} of the account's signatures (before {@code before}) and the pages after it, down to {@code since}. */
    private Uni<Optional<Landing>> pages(JsonRpcHttp http, String account, String payerSignature, Instant since, String before, int page) {
        if (page >= MAX_PAGES) {
            return Uni.createFrom().item(Optional.empty());
        }
        ObjectNode cfg = JSON.createObjectNode().put("limit", PAGE).put("commitment", "finalized");
        if (before != null) {
            cfg.put("before", before);
        }
        return call(http, "getSignaturesForAddress", JSON.createArrayNode().add(account).add(cfg)).flatMap(sigs -> {
            List<String> candidates = new ArrayList<>();
            boolean older = false;
            for (JsonNode s : sigs) {
                if (s.hasNonNull("blockTime") && Instant.ofEpochSecond(s.path("blockTime").asLong()).isBefore(since)) {
                    older = true;
                    break;
                }
                candidates.add(s.path("signature").asText());
            }
            boolean last = older || sigs.size() < PAGE;
            return first(candidates, sig -> landing(http, sig, payerSignature)).flatMap(found -> found.isPresent() || last
                    ? Uni.createFrom().item(found)
                    : pages(http, account, payerSignature, since, sigs.get(sigs.size() - 1).path("signature").asText(), page + 1));
        });
    }

    /** The transaction {@code sig} when the payer signed it. */
    private Uni<Optional<Landing>> landing(JsonRpcHttp http, String sig, String payerSignature) {
        ObjectNode txCfg = JSON.createObjectNode().put("encoding", "json").put("commitment", "finalized")
                .put("maxSupportedTransactionVersion", 0);
        return call(http, "getTransaction", JSON.createArrayNode().add(sig).add(txCfg)).map(tx -> {
            for (JsonNode s : tx.path("transaction").path("signatures")) {
                if (payerSignature.equals(s.asText())) {
                    return Optional.of(new Landing(sig, tx.path("meta").path("err").isNull()));
                }
            }
            return Optional.empty();
        });
    }

    /** The first finding of {@code ask}, asking about one item after another and stopping at the first found. */
    private static <T> Uni<Optional<Landing>> first(List<T> items, Function<T, Uni<Optional<Landing>>> ask) {
        return Multi.createFrom().iterable(items)
                .onItem().transformToUniAndConcatenate(item -> ask.apply(item))
                .filter(Optional::isPresent)
                .toUni()
                .map(found -> found == null ? Optional.empty() : found);
    }

    private static Uni<JsonNode> call(JsonRpcHttp http, String method, ArrayNode params) {
        return http.call(method, params)
                .onFailure(JsonRpcException.class).transform(e -> new IllegalStateException("solana " + e.getMessage(), e));
    }
}
