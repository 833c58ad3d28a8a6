package dev.agentpay.discovery.verification.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.discovery.client.HttpJson;
import dev.agentpay.discovery.domain.UpstreamUnavailableException;
import dev.agentpay.discovery.config.DiscoveryConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpMethod;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;

/**
 * The anchor network's JSON-RPC as {@code service_verify_mandate} reads it: the chain id and transaction
 * receipts, nothing that writes. Reads are retried once; a node that does not answer is
 * {@link UpstreamUnavailableException}.
 */
@ApplicationScoped
public class AnchorChainClient {

    public static final String SERVICE = "anchor RPC";

    @Inject
    HttpJson http;

    @Inject
    DiscoveryConfig config;

    public boolean configured() {
        return config.anchorRpcUrl().filter(u -> !u.isBlank()).isPresent();
    }

    /** {@code eth_chainId} as a number. */
    public Uni<Long> chainId() {
        return call("eth_chainId", JsonNodeFactory.instance.arrayNode()).map(r -> Long.decode(r.asText()));
    }

    /** {@code eth_getTransactionReceipt}, or empty for a transaction the node does not know. */
    public Uni<Optional<JsonNode>> receipt(String txHash) {
        return call("eth_getTransactionReceipt", JsonNodeFactory.instance.arrayNode().add(txHash))
                .map(r -> r == null || r.isNull() ? Optional.<JsonNode>empty() : Optional.of(r));
    }

    /**
     * {@code eth_getLogs} of {@code address} from block 0 to {@code toBlock} (hex or a tag) whose first topic is
     * one of {@code topics0}: the logs as the node returns them (an array).
     */
    public Uni<JsonNode> logs(String address, java.util.List<String> topics0, String toBlock) {
        ObjectNode filter = JsonNodeFactory.instance.objectNode().put("address", address).put("fromBlock", "0x0").put("toBlock", toBlock);
        filter.putArray("topics").addArray().addAll(topics0.stream().map(JsonNodeFactory.instance::textNode).toList());
        return call("eth_getLogs", JsonNodeFactory.instance.arrayNode().add(filter));
    }

    /** {@code eth_call} of {@code data} on {@code to} at the latest block: the returned hex. */
    public Uni<String> ethCall(String to, String data) {
        ObjectNode tx = JsonNodeFactory.instance.objectNode().put("to", to).put("data", data);
        return call("eth_call", JsonNodeFactory.instance.arrayNode().add(tx).add("latest")).map(JsonNode::asText);
    }

    private Uni<JsonNode> call(String method, JsonNode params) {
        ObjectNode body = JsonNodeFactory.instance.objectNode().put("jsonrpc", "2.0").put("id", 1).put("method", method);
        body.set("params", params);
        String url = config.anchorRpcUrl().orElseThrow();
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
