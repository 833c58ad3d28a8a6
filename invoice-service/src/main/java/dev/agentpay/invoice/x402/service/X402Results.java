package dev.agentpay.invoice.x402.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.invoice.invoices.domain.Invoice;
import dev.agentpay.invoice.invoices.domain.InvoiceView;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.UUID;

/** The bodies and headers a successful paid call answers with. */
final class X402Results {

    static final ObjectMapper JSON = X402Service.JSON;

    private X402Results() {
    }

    static JsonNode invoiceResult(Invoice inv) {
        return invoiceResult(inv.id(), inv.status().name());
    }

    static JsonNode invoiceResult(UUID id, String status) {
        ObjectNode r = JSON.createObjectNode();
        r.put("id", id.toString());
        r.put("status", status);
        return r;
    }

    /**
     * The settlement view: the Invoice object without the customer's personal fields (the caller is
     * whoever pays, not necessarily the invoice's owner). The description stays: it is the partner's text
     * for whoever pays (what the payment is for), shown on the hosted payment page {@code /checkout/{id}}.
     */
    static JsonNode settleResult(Invoice inv) {
        InvoiceView v = InvoiceView.of(inv);
        InvoiceView redacted = new InvoiceView(v.id(), v.invoiceNumber(), v.status(), v.amount(), v.currency(), null,
                null, v.description(), v.paymentDetails(), v.createdAt(), v.settledAt(), v.expiresAt(), v.expiredAt(), null, null);
        return dev.agentpay.commons.events.EventCodec.mapper().valueToTree(redacted);
    }

    static String paymentResponse(String tx, String network, String payer) {
        ObjectNode n = JSON.createObjectNode();
        n.put("success", true);
        n.put("transaction", tx);
        n.put("network", network);
        n.put("payer", payer);
        return Base64.getEncoder().encodeToString(n.toString().getBytes(StandardCharsets.UTF_8));
    }
}
