package dev.agentpay.invoice.rest;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The typed contract of the invoice and x402 request bodies, as the OpenAPI document describes them. The
 * bodies are read with the platform's reader ({@code JsonRequest}); {@code InvoiceRequests} and
 * {@code X402Requests} apply these rules, naming the field of any refusal.
 */
public final class InvoiceApi {

    private InvoiceApi() {
    }

    @Schema(name = "CreateInvoiceRequest", additionalProperties = Schema.False.class)
    public record CreateInvoiceRequest(
            @Schema(required = true, minimum = "0", exclusiveMinimum = true, description = "USDC, at most 6 decimals", examples = "12.5")
            BigDecimal amount,
            @Schema(required = true, enumeration = {"base", "skale", "polygon", "arbitrum", "solana"}) String chain,
            @Schema(enumeration = "USDC", defaultValue = "USDC") String currency,
            @Schema(maxLength = 254, format = "email") String customerEmail,
            @Schema(maxLength = 200) String customerName,
            @Schema(maxLength = 1000) String description) {
    }

    @Schema(name = "X402InvoiceRequest", additionalProperties = Schema.False.class,
            description = "every field optional; the amount defaults to the configured price")
    public record X402InvoiceRequest(
            @Schema(maxLength = 200) String issuer,
            @Schema(maxLength = 200) String recipient,
            @Schema(maxLength = 254, format = "email") String email,
            @Schema(minimum = "0", exclusiveMinimum = true) BigDecimal amount,
            @Schema(enumeration = "USDC") String currency,
            @Schema(maxLength = 1000) String description) {
    }

    /** The x402 protocol's 402 answer (not the platform envelope: x402 clients read this shape). */
    @Schema(name = "X402PaymentRequired", description = "the x402 challenge: what to pay, where, and why the request was refused")
    public record X402PaymentRequired(
            @Schema(required = true, examples = "1") int x402Version,
            @Schema(description = "why no payment was accepted") String error,
            @Schema(required = true, description = "the payment requirements (x402 PaymentRequirements), one per accepted network")
            List<Map<String, Object>> accepts) {
    }

    @Schema(name = "X402SettleRequest", additionalProperties = Schema.False.class)
    public record X402SettleRequest(@Schema(required = true, format = "uuid") String invoice_id) {
    }
}
