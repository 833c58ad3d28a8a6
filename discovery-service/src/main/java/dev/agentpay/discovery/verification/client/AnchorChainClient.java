package dev.agentpay.discovery.verification.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.discovery.client.HttpJson;
import dev.agentpay.discovery.config.DiscoveryConfig;
import dev.agentpay.discovery.domain.UpstreamUnavailableException;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpMethod;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The anchor chains' JSON-RPC as {@code service_verify_mandate} reads it: chain ids, transaction receipts, logs and
 * calls, nothing that writes. One endpoint per anchor chain (issue 31 item 3: every transition is anchored on each
 * chain of {@code ANCHOR_CHAINS}): {@code discovery.anchor-rpc-urls} ({@code ANCHOR_RPC_URLS},
 * {@code chainId=url,...}); when that is unset, the single {@code discovery.anchor-rpc-url} ({@code ANCHOR_RPC_URL})
 * serves the chain its {@code eth_chainId} reports, as before. Reads are retried once; a node that does not answer
 * is {@link UpstreamUnavailableException}.
 */
@ApplicationScoped
public class AnchorChainClient {

    public static final String SERVICE = "anchor RPC";
    private static final Pattern PAIR = Pattern.compile("([1-9][0-9]{0,17})=(https?://\\S+)");

    @Inject
    HttpJson http;

    @Inject
    DiscoveryConfig config;

    private volatile Map<Long, String> urls;

    /** Refuses to start on a malformed {@code ANCHOR_RPC_URLS}, rather than failing the first verification. */
    void onStart(@Observes StartupEvent ev) {
        byChain();
    }

    /**
     * {@code ANCHOR_RPC_URLS}: comma-separated {@code chainId=url} pairs, in order; blank: none.
     *
     * @throws IllegalStateException on a pair that is not {@code chainId=http(s)://...} or a chain named twice
     */
    public static Map<Long, String> parseRpcUrls(String value) {
        Map<Long, String> out = new LinkedHashMap<>();
        if (value == null || value.isBlank()) {
            return out;
        }
        for (String raw : value.split(",")) {
            String pair = raw.trim();
            if (pair.isEmpty()) {
                continue;
            }
            Matcher m = PAIR.matcher(pair);
            if (!m.matches()) {
                throw new IllegalStateException("discovery.anchor-rpc-urls (ANCHOR_RPC_URLS): \"" + pair
                        + "\" is not chainId=url; expected comma-separated pairs such as"
                        + " 84532=http://127.0.0.1:8545,8453=http://127.0.0.1:8546");
            }
            if (out.put(Long.parseLong(m.group(1)), m.group(2)) != null) {
                throw new IllegalStateException("discovery.anchor-rpc-urls (ANCHOR_RPC_URLS): chain " + m.group(1)
                        + " is given twice");
            }
        }
        return Collections.unmodifiableMap(out);
    }

    private Map<Long, String> byChain() {
        Map<Long, String> u = urls;
        if (u == null) {
            urls = u = parseRpcUrls(config.anchorRpcUrls().orElse(null));
        }
        return u;
    }

    private Optional<String> single() {
        return config.anchorRpcUrl().filter(u -> !u.isBlank());
    }

    /** Some anchor RPC is configured (one per chain, or the single one). */
    public boolean configured() {
        return !byChain().isEmpty() || single().isPresent();
    }

    /**
     * The chains an RPC is configured for: those of {@code ANCHOR_RPC_URLS}, or the one the single
     * {@code ANCHOR_RPC_URL} reports ({@code eth_chainId}); empty when none is configured.
     */
    public Uni<Set<Long>> chains() {
        if (!byChain().isEmpty()) {
            return Uni.createFrom().item(byChain().keySet());
        }
        if (single().isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return call(single().get(), "eth_chainId", JsonNodeFactory.instance.arrayNode()).map(r -> Set.of(Long.decode(r.asText())));
    }

    /** {@code eth_getTransactionReceipt} on {@code chainId}, or empty for a transaction the node does not know. */
    public Uni<Optional<JsonNode>> receipt(long chainId, String txHash) {
        return call(url(chainId), "eth_getTransactionReceipt", JsonNodeFactory.instance.arrayNode().add(txHash))
                .map(r -> r == null || r.isNull() ? Optional.<JsonNode>empty() : Optional.of(r));
    }

    /**
     * {@code eth_getLogs} on {@code chainId} of {@code address} from block 0 to {@code toBlock} (hex or a tag) whose
     * first topic is one of {@code topics0}: the logs as the node returns them (an array).
     */
    public Uni<JsonNode> logs(long chainId, String address, List<String> topics0, String toBlock) {
        ObjectNode filter = JsonNodeFactory.instance.objectNode().put("address", address).put("fromBlock", "0x0").put("toBlock", toBlock);
        filter.putArray("topics").addArray().addAll(topics0.stream().map(JsonNodeFactory.instance::textNode).toList());
        return call(url(chainId), "eth_getLogs", JsonNodeFactory.instance.arrayNode().add(filter));
    }

    /** {@code eth_call} on {@code chainId} of {@code data} on {@code to} at the latest block: the returned hex. */
    public Uni<String> ethCall(long chainId, String to, String data) {
        ObjectNode tx = JsonNodeFactory.instance.objectNode().put("to", to).put("data", data);
        return call(url(chainId), "eth_call", JsonNodeFactory.instance.arrayNode().add(tx).add("latest")).map(JsonNode::asText);
    }

    /**
     * The endpoint of {@code chainId}: from {@code ANCHOR_RPC_URLS}, else the single URL (whose chain the caller
     * learned from {@link #chains()}).
     */
    private String url(long chainId) {
        String u = byChain().isEmpty() ? single().orElse(null) : byChain().get(chainId);
        if (u == null) {
            throw new IllegalArgumentException("no anchor RPC for chain " + chainId);
        }
        return u;
    }

    private Uni<JsonNode> call(String url, String method, JsonNode params) {
        ObjectNode body = JsonNodeFactory.instance.objectNode().put("jsonrpc", "2.0").put("id", 1).put("method", method);
        body.set("params", params);
        return http.read(SERVICE, http.send(http.jsonRequest(HttpMethod.POST, url), body)
                .map(r -> {
                    if (!r.ok() || r.body() == null) {
                        throw new IllegalStateException(method + " answered HTTP " + r.status());
                    }
                    if (r.body().hasNonNull("error")) {
                        throw new IllegalStateException(method + ": " + r.body().get("error").path("message").asText());
                    }
                    return r.body().get("result");
                }));
    }
}
