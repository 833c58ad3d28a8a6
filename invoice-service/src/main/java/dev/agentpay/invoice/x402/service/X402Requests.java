package dev.agentpay.invoice.x402.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.chains.Chain;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.limits.WellFormedText;
import dev.agentpay.invoice.config.InvoiceConfig;
import dev.agentpay.invoice.domain.NewInvoice;
import dev.agentpay.invoice.service.InvoiceRequests;
import dev.agentpay.invoice.x402.config.X402Config;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.Set;
import java.util.UUID;

/**
 * Validates the bodies of the paid calls before any payment is looked at, so a bad request is a 400
 * and never charged. The validated request is kept in normalized JSON with the payment, so an
 * interrupted call can be completed later exactly as asked.
 */
@ApplicationScoped
public class X402Requests {

    static final Set<String> INVOICE_FIELDS = Set.of("issuer", "recipient", "email", "amount", "currency", "description");
    private static final ObjectMapper JSON = dev.agentpay.commons.limits.JsonLimits.newMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    @Inject
    X402Config config;

    @Inject
    InvoiceConfig invoiceConfig;

    /** {@code POST /api/x402/invoice}: every field optional; the normalized request. */
    public ObjectNode invoice(String body) {
        JsonNode root = body == null || body.isBlank() ? JSON.createObjectNode() : object(body);
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!INVOICE_FIELDS.contains(f)) {
                throw ApiException.invalidField(f, "unknown field (accepted: issuer, recipient, email, amount, currency, description)");
            }
        }
        ObjectNode out = JSON.createObjectNode();
        out.put("issuer", InvoiceRequests.optionalText(root, "issuer", 200));
        out.put("recipient", InvoiceRequests.optionalText(root, "recipient", 200));
        out.put("email", InvoiceRequests.optionalEmail(root, "email"));
        out.put("amount", amount(root.get("amount")));
        out.put("currency", InvoiceRequests.currency(root.get("currency")));
        out.put("description", InvoiceRequests.optionalText(root, "description", 1000));
        return out;
    }

    /** {@code POST /api/x402/settle}: {@code invoice_id} required, a UUID. */
    public UUID settle(String body) {
        JsonNode root = body == null || body.isBlank() ? null : object(body);
        if (root == null) {
            throw ApiException.invalidField("invoice_id", "is required");
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!"invoice_id".equals(f)) {
                throw ApiException.invalidField(f, "unknown field (accepted: invoice_id)");
            }
        }
        JsonNode id = root.get("invoice_id");
        if (id == null || id.isNull()) {
            throw ApiException.invalidField("invoice_id", "is required");
        }
        if (!id.isTextual()) {
            throw ApiException.invalidField("invoice_id", "must be a string (UUID)");
        }
        try {
            String s = id.asText().trim();
            UUID u = UUID.fromString(s);
            if (!u.toString().equalsIgnoreCase(s)) {
                throw new IllegalArgumentException();
            }
            return u;
        } catch (IllegalArgumentException e) {
            throw ApiException.invalidField("invoice_id", "must be a UUID");
        }
    }

    /** The invoice a validated request asks for. */
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

    private static JsonNode object(String body) {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw ApiException.badRequest("invalid_json", "request body is not valid JSON");
        }
        if (root == null || !root.isObject()) {
            throw ApiException.badRequest("invalid_body", "request body must be a JSON object");
        }
        WellFormedText.require(root, Set.of());
        return root;
    }

    private String amount(JsonNode n) {
        if (n == null || n.isNull()) {
            return config.invoices().defaultAmount().toPlainString();
        }
        return InvoiceRequests.checkedAmount(n, invoiceConfig.maxAmount()).stripTrailingZeros().toPlainString();
    }
}
