package dev.agentpay.discovery.client;

import dev.agentpay.discovery.domain.UpstreamResponse;
import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.discovery.config.DiscoveryConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpMethod;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * invoice-service's x402 endpoints as the MCP tools use them. Never retried: a paid call repeated
 * after a lost answer could spend the caller's payment proof twice; the caller decides.
 */
@ApplicationScoped
public class InvoiceServiceClient {

    public static final String SERVICE = "invoice-service";
    public static final String X_PAYMENT = "X-PAYMENT";

    @Inject
    HttpJson http;

    @Inject
    DiscoveryConfig config;

    /** POST {@code path} (one of the x402 endpoints) with the body and, when given, the payment proof. */
    public Uni<UpstreamResponse> x402(String path, JsonNode body, String xPayment) {
        var req = http.forCaller(http.jsonRequest(HttpMethod.POST, config.invoiceServiceUrl().replaceAll("/+$", "") + path));
        if (xPayment != null) {
            req.putHeader(X_PAYMENT, xPayment);
        }
        return http.write(SERVICE, http.send(req, body));
    }
}
