package dev.agentpay.discovery.console.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.commons.limits.ForwardedClient;
import dev.agentpay.discovery.client.HttpJson;
import dev.agentpay.discovery.config.DiscoveryConfig;
import dev.agentpay.discovery.console.service.ConsoleSessions.Credential;
import dev.agentpay.discovery.domain.UpstreamResponse;
import dev.agentpay.discovery.pages.config.PagesConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpMethod;
import io.vertx.mutiny.core.MultiMap;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The public API as the console calls it: the owning service's own endpoints with the signed-in partner's
 * credential ({@code x-api-key}, or {@code Authorization: Bearer} with a token from {@code POST /oauth/token}), exactly
 * what the partner could call through the gateway. Never a database.
 */
@ApplicationScoped
public class PartnerApi {

    public enum Service {
        MANDATE("mandate-service"), INVOICE("invoice-service"), WEBHOOK("webhook-dispatcher");

        final String label;

        Service(String label) {
            this.label = label;
        }
    }

    @Inject
    HttpJson http;

    @Inject
    DiscoveryConfig config;

    @Inject
    PagesConfig pages;

    public Uni<UpstreamResponse> get(Service s, Credential credential, String path) {
        return http.read(s.label, http.send(request(HttpMethod.GET, s, credential, path), null));
    }

    /** A call that changes state: never retried. */
    public Uni<UpstreamResponse> post(Service s, Credential credential, String path, JsonNode body) {
        return post(s, credential, path, body, null);
    }

    /** A call that changes state, with an {@code Idempotency-Key} when given (a repeat is answered, not done again). */
    public Uni<UpstreamResponse> post(Service s, Credential credential, String path, JsonNode body, String idempotencyKey) {
        var req = request(HttpMethod.POST, s, credential, path);
        if (idempotencyKey != null) {
            req.putHeader("Idempotency-Key", idempotencyKey);
        }
        return http.write(s.label, http.send(req, body));
    }

    /**
     * The OAuth 2.0 client-credentials exchange ({@code POST /oauth/token} of mandate-service, the issuer;
     * {@code client_secret_post}): the secret travels once, to the issuer, and is kept nowhere. Sent for the person
     * at {@code callerAddress} ({@code X-Forwarded-For}; null: nobody named), so the issuer's per-address limit
     * counts that person and not the console as a whole. Never retried (a refusal is an answer).
     */
    public Uni<UpstreamResponse> token(String clientId, String clientSecret, String callerAddress) {
        var req = http.jsonRequest(HttpMethod.POST, base(Service.MANDATE) + "/oauth/token");
        if (callerAddress != null) {
            req.putHeader(ForwardedClient.HEADER, callerAddress);
        }
        MultiMap form = MultiMap.caseInsensitiveMultiMap()
                .add("grant_type", "client_credentials").add("client_id", clientId).add("client_secret", clientSecret);
        return http.write(Service.MANDATE.label, req.sendForm(form).map(http::toResponse));
    }

    private io.vertx.mutiny.ext.web.client.HttpRequest<io.vertx.mutiny.core.buffer.Buffer> request(HttpMethod m, Service s,
            Credential credential, String path) {
        return http.jsonRequest(m, base(s) + path).putHeader(credential.header(), credential.value());
    }

    String base(Service s) {
        String url = switch (s) {
            case MANDATE -> config.mandateServiceUrl();
            case INVOICE -> config.invoiceServiceUrl();
            case WEBHOOK -> pages.webhookDispatcherUrl();
        };
        return url.replaceAll("/+$", "");
    }
}
