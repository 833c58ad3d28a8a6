package dev.agentpay.discovery.client;

import dev.agentpay.discovery.domain.UpstreamResponse;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.discovery.config.DiscoveryConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpMethod;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.UUID;

/**
 * invoice-service as discovery-service calls it: the x402 endpoints the MCP tools use (never retried: a paid call
 * repeated after a lost answer could spend the caller's payment proof twice; the caller decides) and the payment
 * page's public capability read.
 */
@ApplicationScoped
public class InvoiceServiceClient {

    public static final String SERVICE = "invoice-service";
    public static final String X_PAYMENT = "X-PAYMENT";

    @Inject
    HttpJson http;

    @Inject
    DiscoveryConfig config;

    /** {@code GET /v1/invoices/{id}/pay}: the invoice as its payment page shows it (no key: the id is the capability). */
    public Uni<UpstreamResponse> pay(UUID id) {
        return http.read(SERVICE, http.send(http.jsonRequest(HttpMethod.GET, url("/v1/invoices/" + id + "/pay")), null));
    }

    /** POST {@code path} (one of the x402 endpoints) with the body and, when given, the payment proof. */
    public Uni<UpstreamResponse> x402(String path, JsonNode body, String xPayment) {
        var req = http.forCaller(http.jsonRequest(HttpMethod.POST, url(path)));
        if (xPayment != null) {
            req.putHeader(X_PAYMENT, xPayment);
        }
        return http.write(SERVICE, http.send(req, body));
    }

    private String url(String path) {
        return config.invoiceServiceUrl().replaceAll("/+$", "") + path;
    }
}
