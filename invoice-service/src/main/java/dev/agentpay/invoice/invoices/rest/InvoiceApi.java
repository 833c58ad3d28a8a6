package dev.agentpay.invoice.invoices.rest;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.agentpay.commons.chains.Chain;
import dev.agentpay.invoice.invoices.domain.NewInvoice;
import dev.agentpay.invoice.invoices.rest.InvoiceConstraints.Deadline;
import dev.agentpay.commons.chains.KnownChain;
import dev.agentpay.invoice.invoices.rest.InvoiceConstraints.OnlyUsdc;
import dev.agentpay.invoice.invoices.rest.InvoiceConstraints.UsdcAmount;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The request bodies of invoice-service, bound by Quarkus REST's Jackson (the platform's
 * {@code commons.limits.StrictJson}: unknown fields and wrong JSON types refused; decimals read exactly into
 * {@code BigDecimal}) and checked by Bean Validation ({@code @Valid}); a refusal is a 400 naming the field
 * ({@code commons.error.ErrorMappers}, {@code commons.validation.ViolationMapper}).
 * Optional text is trimmed and a blank value counts as absent, before validation. Also the x402 answers
 * the OpenAPI document describes.
 */
public final class InvoiceApi {

    private InvoiceApi() {
    }

    /** Trimmed; blank is absent. */
    static String text(String v) {
        if (v == null) {
            return null;
        }
        String t = v.trim();
        return t.isEmpty() ? null : t;
    }

    @Schema(name = "CreateInvoiceRequest", additionalProperties = Schema.False.class)
    public record CreateInvoiceRequest(
            @Schema(required = true, minimum = "0", exclusiveMinimum = true, maximum = "1000000000",
                    description = "USDC, a JSON number with at most 6 decimals (a string is refused)", examples = "12.5")
            @NotNull(message = "is required") @UsdcAmount BigDecimal amount,
            @Schema(required = true, enumeration = {"base", "skale", "polygon", "arbitrum", "solana"})
            @NotNull(message = "is required (one of base, skale, polygon, arbitrum, solana)") @KnownChain String chain,
            @Schema(enumeration = "USDC", defaultValue = "USDC") @OnlyUsdc String currency,
            @Schema(format = "email") @Size(max = 254, message = "must be at most 254 characters")
            @Pattern(regexp = InvoiceConstraints.EMAIL, message = "must be a valid email address") String customerEmail,
            @Size(max = 200, message = "must be at most 200 characters") String customerName,
            @Size(max = 1000, message = "must be at most 1000 characters") String description,
            @Schema(format = "date-time", description = "when the invoice expires (60 s to 30 days ahead); default: 24 h after creation",
                    examples = "2026-12-01T12:00:00Z") @Deadline String expiresAt) {

        public CreateInvoiceRequest {
            chain = chain == null ? null : chain.trim();
            customerEmail = text(customerEmail);
            customerName = text(customerName);
            description = text(description);
            expiresAt = text(expiresAt);
        }

        /** The validated request as the service takes it (currency is always USDC). */
        public NewInvoice toNewInvoice() {
            return new NewInvoice(amount.setScale(6), "USDC", customerEmail, customerName, description,
                    Chain.of(chain).orElseThrow(), expiresAt == null ? null : InvoiceConstraints.instant(expiresAt));
        }
    }

    @Schema(name = "X402InvoiceRequest", additionalProperties = Schema.False.class,
            description = "every field optional; the amount defaults to the configured price")
    public record X402InvoiceRequest(
            @Size(max = 200, message = "must be at most 200 characters") String issuer,
            @Size(max = 200, message = "must be at most 200 characters") String recipient,
            @Schema(format = "email") @Size(max = 254, message = "must be at most 254 characters")
            @Pattern(regexp = InvoiceConstraints.EMAIL, message = "must be a valid email address") String email,
            @Schema(minimum = "0", exclusiveMinimum = true, maximum = "1000000000",
                    description = "USDC, a JSON number with at most 6 decimals; default 0.01") @UsdcAmount BigDecimal amount,
            @Schema(enumeration = "USDC", defaultValue = "USDC") @OnlyUsdc String currency,
            @Size(max = 1000, message = "must be at most 1000 characters") String description) {

        public X402InvoiceRequest {
            issuer = text(issuer);
            recipient = text(recipient);
            email = text(email);
            description = text(description);
        }

        /** An absent body: every field defaulted. */
        public static final X402InvoiceRequest EMPTY = new X402InvoiceRequest(null, null, null, null, null, null);
    }

    @Schema(name = "X402SettleRequest", additionalProperties = Schema.False.class)
    public record X402SettleRequest(
            @Schema(required = true, format = "uuid") @JsonProperty("invoice_id")
            @NotNull(message = "is required") @Pattern(regexp = InvoiceConstraints.UUID, message = "must be a UUID") String invoiceId) {

        public X402SettleRequest {
            invoiceId = invoiceId == null ? null : invoiceId.trim();
        }
    }

    /** One x402 PaymentRequirements entry (v1 form) of a 402 answer's {@code accepts}. */
    @Schema(name = "X402PaymentRequirements", description = "one way to pay (x402 v1 PaymentRequirements)")
    public record X402PaymentRequirements(
            @Schema(required = true, examples = "exact") String scheme,
            @Schema(required = true, description = "x402 v1 network name", examples = "base") String network,
            @Schema(required = true, description = "the price in the asset's atomic units (USDC: 6 decimals)", examples = "10000")
            String maxAmountRequired,
            @Schema(required = true, description = "the full URL of the paid resource") String resource,
            @Schema(required = true) String description,
            @Schema(required = true, examples = "application/json") String mimeType,
            @Schema(description = "what the call takes and answers (x402 `outputSchema`: `input`, `output`)")
            Map<String, Object> outputSchema,
            @Schema(required = true, description = "where the payment goes") String payTo,
            @Schema(required = true, examples = "120") int maxTimeoutSeconds,
            @Schema(required = true, description = "the USDC token (EVM address or Solana mint)") String asset,
            @Schema(description = "EVM: the token's EIP-712 domain (`name`, `version`); Solana: `feePayer`")
            Map<String, Object> extra) {
    }

    /** The x402 protocol's 402 answer (not the platform envelope: x402 clients read this shape). */
    @Schema(name = "X402PaymentRequired", description = "the x402 challenge: what to pay, where, and why the request was refused;"
            + " the v2 form is in the `PAYMENT-REQUIRED` header (base64 JSON)")
    public record X402PaymentRequired(
            @Schema(required = true, examples = "1") int x402Version,
            @Schema(required = true, description = "why no payment was accepted") String error,
            @Schema(required = true, description = "the payment requirements, one per accepted rail (Solana first when offered)")
            List<X402PaymentRequirements> accepts,
            @Schema(required = true, description = "always false") boolean success,
            @Schema(required = true, description = "machine-readable reason (`payment_required`, `invalid_payment`,"
                    + " `payment_already_used`, `amount_mismatch`, ...)", examples = "payment_required") String errorCode) {
    }

    /** The 200 answer of a paid x402 call. */
    @Schema(name = "X402Success", description = "a paid call's answer; `X-PAYMENT-RESPONSE` (and `PAYMENT-RESPONSE` for v2)"
            + " carry the settlement")
    public record X402Success(
            @Schema(required = true, description = "always true") boolean success,
            @Schema(required = true, enumeration = {"invoice", "settle", "pay"}) String capability,
            @Schema(required = true, description = "invoice: `{id, status}`; settle and pay: the Invoice object without"
                    + " customerEmail/customerName/description") Map<String, Object> result) {
    }
}
