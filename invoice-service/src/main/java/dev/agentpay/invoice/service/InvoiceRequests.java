package dev.agentpay.invoice.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.commons.chains.Chain;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.rest.JsonRequest;
import dev.agentpay.invoice.config.InvoiceConfig;
import dev.agentpay.invoice.domain.NewInvoice;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Validates {@code POST /v1/invoices} bodies. Required: {@code amount}, {@code chain}. Optional:
 * {@code currency} (default and only value {@code USDC}), {@code customerEmail}, {@code customerName},
 * {@code description}, {@code expiresAt} (ISO 8601 with offset, between {@code invoice.expiry.min-ttl}
 * and {@code max-ttl} ahead; absent: {@code default-ttl}). Every refusal is a 400 naming the field; unknown fields are refused too, so a
 * typo never silently drops data.
 */
@ApplicationScoped
public class InvoiceRequests {

    static final Set<String> FIELDS = Set.of("amount", "currency", "customerEmail", "customerName", "description", "chain",
            "expiresAt");
    // Pragmatic address check (RFC 5321 lengths, one @, a dotted domain); deliverability is not ours to judge.
    private static final Pattern EMAIL = Pattern.compile("^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$");

    @Inject
    InvoiceConfig config;

    public NewInvoice parse(String body) {
        // the platform's one request reader: JSON syntax, duplicate keys, limits, unknown fields, well-formed text
        JsonNode root = JsonRequest.parse(null, body, Integer.MAX_VALUE, false, FIELDS).node();
        BigDecimal amount = amount(root.get("amount"));
        String currency = currency(root.get("currency"));
        Chain chain = chain(root.get("chain"));
        String email = optionalEmail(root, "customerEmail");
        return new NewInvoice(amount, currency, email, optionalText(root, "customerName", 200),
                optionalText(root, "description", 1000), chain, expiresAt(root.get("expiresAt"), java.time.Instant.now()));
    }

    /** The optional deadline: an ISO 8601 timestamp with offset, within the configured lifetime bounds. */
    java.time.Instant expiresAt(JsonNode n, java.time.Instant now) {
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isTextual()) {
            throw ApiException.invalidField("expiresAt", "must be an ISO 8601 timestamp string");
        }
        java.time.Instant at;
        try {
            at = java.time.OffsetDateTime.parse(n.asText().trim()).toInstant();
        } catch (java.time.format.DateTimeParseException e) {
            throw ApiException.invalidField("expiresAt", "must be an ISO 8601 timestamp with offset, e.g. 2026-01-31T12:00:00Z");
        }
        var expiry = config.expiry();
        if (at.isBefore(now.plus(expiry.minTtl()))) {
            throw ApiException.invalidField("expiresAt", "must be at least " + expiry.minTtl().toSeconds() + " s in the future");
        }
        if (at.isAfter(now.plus(expiry.maxTtl()))) {
            throw ApiException.invalidField("expiresAt", "must be at most " + expiry.maxTtl().toDays() + " days in the future");
        }
        return at;
    }

    private BigDecimal amount(JsonNode n) {
        if (n == null || n.isNull()) {
            throw ApiException.invalidField("amount", "is required");
        }
        return checkedAmount(n, config.maxAmount()).setScale(6);
    }

    /** The rules of a USDC amount field (shared with the x402 invoice body): a positive number, 6 decimals at most. */
    public static BigDecimal checkedAmount(JsonNode n, BigDecimal max) {
        if (!n.isNumber()) {
            throw ApiException.invalidField("amount", "must be a number");
        }
        BigDecimal v = n.decimalValue();
        if (v.signum() <= 0) {
            throw ApiException.invalidField("amount", "must be greater than 0");
        }
        if (v.stripTrailingZeros().scale() > 6) {
            throw ApiException.invalidField("amount", "must have at most 6 decimal places (USDC has 6 decimals)");
        }
        if (v.compareTo(max) > 0) {
            throw ApiException.invalidField("amount", "must not exceed " + max.toPlainString());
        }
        return v;
    }

    /** The currency field: absent means USDC, anything but USDC (any case) is refused. */
    public static String currency(JsonNode n) {
        if (n == null || n.isNull()) {
            return "USDC";
        }
        if (!n.isTextual()) {
            throw ApiException.invalidField("currency", "must be a string");
        }
        if (!"USDC".equals(n.asText().trim().toUpperCase(Locale.ROOT))) {
            throw new ApiException(400, "unsupported_currency", "currency: only USDC is supported");
        }
        return "USDC";
    }

    private static Chain chain(JsonNode n) {
        if (n == null || n.isNull()) {
            throw ApiException.invalidField("chain", "is required (one of base, skale, polygon, arbitrum, solana)");
        }
        if (!n.isTextual()) {
            throw ApiException.invalidField("chain", "must be a string");
        }
        return Chain.of(n.asText()).orElseThrow(() -> new ApiException(400, "unsupported_chain",
                "chain: must be one of base, skale, polygon, arbitrum, solana"));
    }

    /** An optional email address field (at most 254 characters). */
    public static String optionalEmail(JsonNode root, String field) {
        String email = optionalText(root, field, 254);
        if (email != null && !EMAIL.matcher(email).matches()) {
            throw ApiException.invalidField(field, "must be a valid email address");
        }
        return email;
    }

    /** An optional text field: trimmed, blank means absent, at most {@code max} characters. */
    public static String optionalText(JsonNode root, String field, int max) {
        JsonNode n = root.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isTextual()) {
            throw ApiException.invalidField(field, "must be a string");
        }
        String v = n.asText().trim();
        if (v.isEmpty()) {
            return null;
        }
        if (v.length() > max) {
            throw ApiException.invalidField(field, "must be at most " + max + " characters");
        }
        return v;
    }
}
