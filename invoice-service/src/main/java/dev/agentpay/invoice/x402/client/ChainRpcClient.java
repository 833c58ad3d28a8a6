package dev.agentpay.invoice.x402.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.ext.web.client.WebClient;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;

/**
 * Reads EIP-3009 {@code authorizationState(authorizer, nonce)} from the USDC contract over JSON-RPC: the
 * chain's own answer to "did this payment move money?", used when a settle's outcome was lost.
 */
@ApplicationScoped
public class ChainRpcClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String AUTHORIZATION_STATE = "e94a0102"; // authorizationState(address,bytes32)

    @Inject
    Vertx vertx;

    private WebClient client;

    private synchronized WebClient client() {
        if (client == null) {
            client = WebClient.create(vertx, new WebClientOptions().setConnectTimeout(2000).setKeepAlive(true));
        }
        return client;
    }

    @PreDestroy
    void close() {
        if (client != null) {
            client.close();
        }
    }

    /** True when the authorization was used (the transfer happened); retried twice with back-off. */
    public Uni<Boolean> authorizationUsed(String rpcUrl, String token, String authorizer, String nonce) {
        String data = "0x" + AUTHORIZATION_STATE + word(authorizer.substring(2)) + word(nonce.substring(2));
        ObjectNode req = JSON.createObjectNode();
        req.put("jsonrpc", "2.0");
        req.put("id", 1);
        req.put("method", "eth_call");
        ArrayNode params = req.putArray("params");
        params.addObject().put("to", token).put("data", data);
        params.add("latest");
        URI uri = URI.create(rpcUrl);
        int port = uri.getPort() > 0 ? uri.getPort() : ("https".equals(uri.getScheme()) ? 443 : 80);
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        return client().post(port, uri.getHost(), path).ssl("https".equals(uri.getScheme()))
                .timeout(5000).putHeader("content-type", "application/json")
                .sendBuffer(Buffer.buffer(req.toString()))
                .map(r -> {
                    try {
                        JsonNode n = JSON.readTree(r.bodyAsString());
                        if (n.hasNonNull("error") || !n.hasNonNull("result")) {
                            throw new IllegalStateException("eth_call failed: " + n.path("error"));
                        }
                        String hex = n.get("result").asText().replaceFirst("^0x", "");
                        return !hex.isEmpty() && new java.math.BigInteger(hex, 16).signum() != 0;
                    } catch (java.io.IOException e) {
                        throw new IllegalStateException("eth_call answered no JSON", e);
                    }
                })
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(2)).atMost(2);
    }

    private static String word(String hex) {
        String h = hex.toLowerCase(Locale.ROOT);
        return "0".repeat(64 - h.length()) + h;
    }
}
