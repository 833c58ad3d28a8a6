package dev.agentpay.discovery.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.discovery.config.DiscoveryConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpMethod;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * mandate-service's HTTP API as the MCP tools use it. Owns time-outs and retries: the read is
 * retried once on a connection failure; the dispute is never retried (it changes state, and a
 * repeat after a lost answer would only be refused as an invalid transition).
 */
@ApplicationScoped
public class MandateServiceClient {

    public static final String SERVICE = "mandate-service";

    @Inject
    HttpJson http;

    @Inject
    DiscoveryConfig config;

    @Inject
    ObjectMapper mapper;

    public Uni<UpstreamResponse> publicMandate(String mandateId) {
        return http.send(http.request(HttpMethod.GET, base() + "/v1/public/mandates/" + enc(mandateId))
                        .putHeader("accept", "application/json")
                        .timeout(config.upstreamTimeout().toMillis()), null)
                .onFailure().retry().withBackOff(Duration.ofMillis(200)).atMost(1)
                .onFailure().transform(e -> new UpstreamUnavailableException(SERVICE, e));
    }

    /** The mandate's public proof document ({@code GET /v1/public/mandates/{id}/proof}). */
    public Uni<UpstreamResponse> proof(String mandateId) {
        return http.send(http.request(HttpMethod.GET, base() + "/v1/public/mandates/" + enc(mandateId) + "/proof")
                        .putHeader("accept", "application/json")
                        .timeout(config.upstreamTimeout().toMillis()), null)
                .onFailure().retry().withBackOff(Duration.ofMillis(200)).atMost(1)
                .onFailure().transform(e -> new UpstreamUnavailableException(SERVICE, e));
    }

    public Uni<UpstreamResponse> dispute(String mandateId, String apiKey, String reason, String triggeredBy) {
        ObjectNode body = mapper.createObjectNode().put("reason", reason).put("triggered_by", triggeredBy);
        return http.send(http.request(HttpMethod.POST, base() + "/v1/mandates/" + enc(mandateId) + "/dispute")
                        .putHeader("accept", "application/json")
                        .putHeader("x-api-key", apiKey)
                        .timeout(config.upstreamTimeout().toMillis()), body)
                .onFailure().transform(e -> new UpstreamUnavailableException(SERVICE, e));
    }

    private String base() {
        return config.mandateServiceUrl().replaceAll("/+$", "");
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
