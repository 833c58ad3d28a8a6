package dev.agentpay.discovery.client;

import dev.agentpay.discovery.domain.UpstreamResponse;
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

    /** A partner credential sent on: an API key ({@code x-api-key}) or an OAuth access token ({@code Authorization: Bearer}). */
    public record Credential(String header, String value, String what) {

        public static Credential apiKey(String key) {
            return new Credential("x-api-key", key, "api_key");
        }

        public static Credential bearer(String token) {
            return new Credential("Authorization", "Bearer " + token, "access token");
        }
    }

    public Uni<UpstreamResponse> dispute(String mandateId, String apiKey, String reason, String triggeredBy) {
        return dispute(mandateId, Credential.apiKey(apiKey), reason, triggeredBy);
    }

    public Uni<UpstreamResponse> dispute(String mandateId, Credential credential, String reason, String triggeredBy) {
        ObjectNode body = JsonNodeFactory.instance.objectNode().put("reason", reason).put("triggered_by", triggeredBy);
        return http.write(SERVICE, http.send(http.forCaller(http.jsonRequest(HttpMethod.POST, base() + "/v1/mandates/" + enc(mandateId) + "/dispute"))
                .putHeader(credential.header(), credential.value()), body));
    }

    /**
     * One piece of dispute evidence ({@code POST /v1/mandates/{id}/dispute/evidence}); never retried here (it adds a row):
     * the caller repeats it with the same idempotency key, which answers the first answer.
     */
    public Uni<UpstreamResponse> disputeEvidence(String mandateId, Credential credential, String idempotencyKey, ObjectNode body) {
        var req = http.forCaller(http.jsonRequest(HttpMethod.POST, base() + "/v1/mandates/" + enc(mandateId) + "/dispute/evidence"))
                .putHeader(credential.header(), credential.value());
        if (idempotencyKey != null) {
            req.putHeader("Idempotency-Key", idempotencyKey);
        }
        return http.write(SERVICE, http.send(req, body));
    }

    /** The mandate's dispute ({@code GET /v1/mandates/{id}/dispute}, the partner's credential). */
    public Uni<UpstreamResponse> disputeCase(String mandateId, Credential credential) {
        return http.read(SERVICE, http.send(http.forCaller(http.jsonRequest(HttpMethod.GET, base() + "/v1/mandates/" + enc(mandateId)
                + "/dispute")).putHeader(credential.header(), credential.value()), null));
    }

    /** The budget of the partner's mandate ({@code GET /v1/mandates/{id}/budget}, the partner's key). */
    public Uni<UpstreamResponse> budget(String mandateId, String apiKey) {
        return http.read(SERVICE, http.send(http.forCaller(http.jsonRequest(HttpMethod.GET, base() + "/v1/mandates/" + enc(mandateId)
                + "/budget?limit=20")).putHeader("x-api-key", apiKey), null));
    }

    /**
     * A charge against the mandate's budget ({@code POST /v1/mandates/{id}/charges}); never retried here (it reserves
     * money): the caller repeats it with the same idempotency key, which answers the first answer.
     */
    public Uni<UpstreamResponse> charge(String mandateId, String apiKey, String idempotencyKey, ObjectNode body) {
        var req = http.forCaller(http.jsonRequest(HttpMethod.POST, base() + "/v1/mandates/" + enc(mandateId) + "/charges"))
                .putHeader("x-api-key", apiKey);
        if (idempotencyKey != null) {
            req.putHeader("Idempotency-Key", idempotencyKey);
        }
        return http.write(SERVICE, http.send(req, body));
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
