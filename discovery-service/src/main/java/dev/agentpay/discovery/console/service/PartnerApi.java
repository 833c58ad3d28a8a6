package dev.agentpay.discovery.console.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.discovery.client.HttpJson;
import dev.agentpay.discovery.domain.UpstreamResponse;
import dev.agentpay.discovery.config.DiscoveryConfig;
import dev.agentpay.discovery.pages.config.PagesConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpMethod;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * The public API as the console calls it: the owning service's own endpoints with the signed-in partner's key in
 * {@code x-api-key}, exactly what the partner could call through the gateway. Never a database.
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

    public Uni<UpstreamResponse> get(Service s, String apiKey, String path) {
        return http.read(s.label, http.send(request(HttpMethod.GET, s, apiKey, path), null));
    }

    /** A call that changes state: never retried. */
    public Uni<UpstreamResponse> post(Service s, String apiKey, String path, JsonNode body) {
        return http.write(s.label, http.send(request(HttpMethod.POST, s, apiKey, path), body));
    }

    private io.vertx.mutiny.ext.web.client.HttpRequest<io.vertx.mutiny.core.buffer.Buffer> request(HttpMethod m, Service s,
            String apiKey, String path) {
        return http.jsonRequest(m, base(s) + path).putHeader("x-api-key", apiKey);
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
