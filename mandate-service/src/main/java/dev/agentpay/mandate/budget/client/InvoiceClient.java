package dev.agentpay.mandate.budget.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.mandate.budget.config.BudgetConfig;
import dev.agentpay.mandate.budget.domain.Charge;
import dev.agentpay.mandate.budget.domain.Usdc;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.ext.web.client.WebClient;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.time.format.DateTimeFormatter;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * invoice-service's internal {@code PUT /admin/charges/{chargeId}/invoice} (operator key, not routed by the
 * gateway): creates the charge's invoice, or returns the one already created for that charge id, so a repeat
 * after a lost answer (a crash, a time-out) never makes a second invoice.
 */
@ApplicationScoped
public class InvoiceClient {

    /** What invoice-service answered. */
    public sealed interface Outcome {
    }

    /** The charge's invoice (the Invoice object as invoice-service returns it). */
    public record Created(String invoiceId, JsonNode invoice) implements Outcome {
    }

    /** invoice-service refused the request (400): the invoice was not and will not be created. */
    public record Refused(int status, String code, String message) implements Outcome {
    }

    /** No usable answer (time-out, connection refused, 5xx, 409): try again later with the same charge id. */
    public record Unavailable(String why) implements Outcome {
    }

    @Inject
    Vertx vertx;

    @Inject
    BudgetConfig config;

    @ConfigProperty(name = "platform.auth.admin-key", defaultValue = "")
    String adminKey;

    WebClient client;

    @PostConstruct
    void init() {
        client = WebClient.create(vertx, new WebClientOptions().setConnectTimeout(3000).setKeepAlive(true)
                .setMaxPoolSize(50).setUserAgent("agentpay-mandate-service"));
    }

    @PreDestroy
    void close() {
        client.close();
    }

    public Uni<Outcome> invoiceFor(Charge c) {
        ObjectNode body = EventCodec.mapper().createObjectNode();
        body.put("partnerId", c.partnerId());
        body.put("mandateId", c.mandateId());
        body.put("amount", new BigDecimal(Usdc.text(c.amountAtomic())));
        body.put("chain", c.chain());
        if (c.description() != null) {
            body.put("description", c.description());
        }
        if (c.invoiceExpiresAt() != null) {
            body.put("expiresAt", DateTimeFormatter.ISO_INSTANT.format(c.invoiceExpiresAt()));
        }
        String url = config.invoiceServiceUrl().replaceAll("/+$", "") + "/admin/charges/" + c.id() + "/invoice";
        return client.requestAbs(HttpMethod.PUT, url)
                .putHeader("x-admin-key", adminKey)
                .putHeader("accept", "application/json")
                .putHeader("content-type", "application/json")
                .timeout(config.invoiceTimeout().toMillis())
                .sendBuffer(Buffer.buffer(body.toString()))
                .map(r -> outcome(r.statusCode(), r.bodyAsString()))
                .onFailure().recoverWithItem(e -> new Unavailable(String.valueOf(e.getMessage())));
    }

    static Outcome outcome(int status, String text) {
        JsonNode json;
        try {
            json = EventCodec.mapper().readTree(text == null ? "{}" : text);
        } catch (Exception e) {
            return new Unavailable("invoice-service answered " + status + " with a body that is not JSON");
        }
        if (status == 200 || status == 201) {
            JsonNode invoice = json.path("data");
            String id = invoice.path("id").asText(null);
            return id == null ? new Unavailable("invoice-service answered " + status + " without an invoice id")
                    : new Created(id, invoice);
        }
        if (status == 400) {
            return new Refused(status, json.path("error").path("code").asText("validation_error"),
                    json.path("error").path("message").asText("invoice-service refused the invoice"));
        }
        return new Unavailable("invoice-service answered " + status + " " + json.path("error").path("code").asText(""));
    }
}
