package dev.agentpay.invoice.x402.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.chains.Chain;
import dev.agentpay.invoice.invoices.domain.NewInvoice;
import dev.agentpay.invoice.invoices.rest.InvoiceApi.X402InvoiceRequest;
import dev.agentpay.invoice.x402.config.X402Config;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigDecimal;

/**
 * The request of a paid call as it is kept with the payment (column {@code request}): normalized JSON, so an
 * interrupted call can be completed later exactly as asked. The body itself was bound and validated before
 * any payment was looked at ({@code InvoiceApi}), so a bad request is a 400 and never charged.
 */
@ApplicationScoped
public class X402Requests {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    X402Config config;

    /** {@code POST /api/x402/invoice}: the validated body with its defaults (amount: the configured price). */
    public ObjectNode invoice(X402InvoiceRequest body) {
        X402InvoiceRequest b = body == null ? X402InvoiceRequest.EMPTY : body;
        ObjectNode out = JSON.createObjectNode();
        out.put("issuer", b.issuer());
        out.put("recipient", b.recipient());
        out.put("email", b.email());
        out.put("amount", (b.amount() == null ? config.invoices().defaultAmount() : b.amount().stripTrailingZeros()).toPlainString());
        out.put("currency", "USDC");
        out.put("description", b.description());
        return out;
    }

    /** The invoice a kept request asks for. */
    public NewInvoice newInvoice(JsonNode req) {
        Chain chain = Chain.of(config.invoices().chain())
                .orElseThrow(() -> new IllegalStateException("x402.invoices.chain is not a chain-table value"));
        return new NewInvoice(new BigDecimal(req.get("amount").asText()).setScale(6), "USDC", nullable(req, "email"),
                nullable(req, "recipient"), nullable(req, "description"), chain, null);
    }

    private static String nullable(JsonNode req, String f) {
        JsonNode v = req.get(f);
        return v == null || v.isNull() ? null : v.asText();
    }
}
