package dev.agentpay.invoice.x402.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.agentpay.commons.rpc.JsonRpcEndpoints;
import dev.agentpay.commons.rpc.JsonRpcException;
import dev.agentpay.commons.rpc.JsonRpcHttp;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.time.Duration;
import java.util.Locale;

/**
 * Reads EIP-3009 {@code authorizationState(authorizer, nonce)} from the USDC contract over JSON-RPC (the
 * platform's {@link JsonRpcHttp}): the chain's own answer to "did this payment move money?", used when a
 * settle's outcome was lost.
 */
@ApplicationScoped
public class ChainRpcClient {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String AUTHORIZATION_STATE = "e94a0102"; // authorizationState(address,bytes32)

    private final JsonRpcEndpoints endpoints;

    // A constructor, not @PostConstruct: the endpoint cache is the bean's whole state, built once into a final field.
    @Inject
    public ChainRpcClient(Vertx vertx) {
        this.endpoints = new JsonRpcEndpoints(url -> new JsonRpcHttp(vertx, url, Duration.ofSeconds(2), Duration.ofSeconds(5), null));
    }

    @PreDestroy
    void close() {
        endpoints.close();
    }

    /** True when the authorization was used (the transfer happened); retried twice with back-off. */
    public Uni<Boolean> authorizationUsed(String rpcUrl, String token, String authorizer, String nonce) {
        String data = "0x" + AUTHORIZATION_STATE + word(authorizer.substring(2)) + word(nonce.substring(2));
        ArrayNode params = JSON.createArrayNode();
        params.addObject().put("to", token).put("data", data);
        params.add("latest");
        return endpoints.at(rpcUrl).call("eth_call", params)
                .onFailure(JsonRpcException.class).transform(e -> new IllegalStateException(e.getMessage(), e))
                .map(result -> {
                    if (result.isNull() || result.isMissingNode()) {
                        throw new IllegalStateException("eth_call failed: no result");
                    }
                    String hex = result.asText().replaceFirst("^0x", "");
                    return !hex.isEmpty() && new BigInteger(hex, 16).signum() != 0;
                })
                .onFailure().retry().withBackOff(Duration.ofMillis(200), Duration.ofSeconds(2)).atMost(2);
    }

    private static String word(String hex) {
        String h = hex.toLowerCase(Locale.ROOT);
        return "0".repeat(64 - h.length()) + h;
    }
}
