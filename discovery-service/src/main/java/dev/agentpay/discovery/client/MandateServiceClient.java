package dev.agentpay.discovery.client;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.discovery.config.DiscoveryConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpMethod;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

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

    public Uni<UpstreamResponse> publicMandate(String mandateId) {
        return get("/v1/public/mandates/" + enc(mandateId));
    }

    /** The mandate's public proof document ({@code GET /v1/public/mandates/{id}/proof}). */
    public Uni<UpstreamResponse> proof(String mandateId) {
        return get("/v1/public/mandates/" + enc(mandateId) + "/proof");
    }

    public Uni<UpstreamResponse> dispute(String mandateId, String apiKey, String reason, String triggeredBy) {
        ObjectNode body = JsonNodeFactory.instance.objectNode().put("reason", reason).put("triggered_by", triggeredBy);
        return http.write(SERVICE, http.send(http.forCaller(http.jsonRequest(HttpMethod.POST, base() + "/v1/mandates/" + enc(mandateId) + "/dispute"))
                .putHeader("x-api-key", apiKey), body));
    }

    private Uni<UpstreamResponse> get(String path) {
        return http.read(SERVICE, http.send(http.forCaller(http.jsonRequest(HttpMethod.GET, base() + path)), null));
    }

    private String base() {
        return config.mandateServiceUrl().replaceAll("/+$", "");
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
