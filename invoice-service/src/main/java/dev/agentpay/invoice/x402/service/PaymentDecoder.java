package dev.agentpay.invoice.x402.service;

import dev.agentpay.commons.limits.WellFormedText;
import com.fasterxml.jackson.databind.JsonNode;
import org.p2p.solanaj.utils.Base58;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.invoice.x402.domain.DecodedPayment;
import dev.agentpay.invoice.x402.domain.PaymentRefused;
import dev.agentpay.invoice.x402.domain.PaymentRequirement;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Decodes an {@code X-PAYMENT} (x402 v1) or {@code PAYMENT-SIGNATURE} (v2) header and checks it
 * against this call's requirements before any facilitator sees it: scheme, network, payee, amount,
 * asset (v2 names it) and the EIP-3009 validity window. Every refusal is a {@link PaymentRefused} with a
 * reason the payer can act on.
 *
 * <p>Solana payments are partially signed transactions: only their shape and the replay key (the
 * payer's signature) are read here; the facilitator checks the transfer instruction's amount, mint and
 * destination against the requirements it receives.
 */
public final class PaymentDecoder {

    private static final ObjectMapper JSON = dev.agentpay.commons.limits.JsonLimits.newMapper();
    private static final Pattern ADDRESS = Pattern.compile("^0x[0-9a-fA-F]{40}$");
    private static final Pattern NONCE = Pattern.compile("^0x[0-9a-fA-F]{64}$");
    private static final Pattern HEX = Pattern.compile("^0x[0-9a-fA-F]+$");
    private static final Pattern UINT = Pattern.compile("^[0-9]{1,78}$");
    /** The facilitator refuses authorizations ending within 6 s; so does this check, for the same reason. */
    static final long MIN_REMAINING_SECONDS = 6;
    static final int MAX_HEADER = 16 * 1024;

    private PaymentDecoder() {
    }

    /**
     * @param header  the header value (base64 of a JSON payment)
     * @param version 1 for {@code X-PAYMENT}, 2 for {@code PAYMENT-SIGNATURE}
     */
    public static DecodedPayment decode(String header, int version, List<PaymentRequirement> requirements, Instant now) {
        JsonNode p = parse(header);
        int declared = p.path("x402Version").asInt(-1);
        if (declared != version) {
            throw new PaymentRefused("invalid_x402_version", version == 1
                    ? "X-PAYMENT carries x402Version 1 (use PAYMENT-SIGNATURE for version 2); got " + p.path("x402Version")
                    : "PAYMENT-SIGNATURE carries x402Version 2 (use X-PAYMENT for version 1); got " + p.path("x402Version"));
        }
        JsonNode accepted = version == 2 ? p.path("accepted") : null;
        if (version == 2 && !accepted.isObject()) {
            throw new PaymentRefused("invalid_payment", "payment has no 'accepted' requirements object (x402 v2)");
        }
        String scheme = text(version == 2 ? accepted : p, "scheme");
        String network = text(version == 2 ? accepted : p, "network");
        if (!"exact".equals(scheme)) {
            throw new PaymentRefused("unsupported_scheme", "scheme '" + scheme + "' is not accepted; use 'exact'");
        }
        PaymentRequirement req = requirements.stream()
                .filter(r -> network.equals(version == 2 ? r.v2Network() : r.network()))
                .findFirst()
                .orElseThrow(() -> new PaymentRefused("unsupported_network", "network '" + network
                        + "' is not accepted here; accepted: " + requirements.stream()
                        .map(r -> version == 2 ? r.v2Network() : r.network()).toList()));
        if (version == 2) {
            checkV2Accepted(accepted, req);
        }
        JsonNode payload = p.path("payload");
        if (!payload.isObject()) {
            throw new PaymentRefused("invalid_payment", "payment has no 'payload' object");
        }
        ObjectNode v1 = JSON.createObjectNode();
        v1.put("x402Version", 1);
        v1.put("scheme", "exact");
        v1.put("network", req.network());
        v1.set("payload", payload);
        return req.rail() == DecodedPayment.Rail.EVM
                ? evm(version, payload, req, v1, now)
                : solana(version, payload, req, v1);
    }

    private static JsonNode parse(String header) {
        String h = header.trim();
        if (h.isEmpty() || h.length() > MAX_HEADER) {
            throw new PaymentRefused("invalid_payment", "payment header is empty or longer than " + MAX_HEADER + " characters");
        }
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(h);
        } catch (IllegalArgumentException e) {
            try {
                raw = Base64.getUrlDecoder().decode(h);
            } catch (IllegalArgumentException e2) {
                throw new PaymentRefused("invalid_payment", "payment header is not base64");
            }
        }
        try {
            JsonNode n = JSON.readTree(new String(raw, StandardCharsets.UTF_8));
            if (n == null || !n.isObject()) {
                throw new PaymentRefused("invalid_payment", "payment header is not a base64-encoded JSON object");
            }
            String illFormed = WellFormedText.firstIllFormed(n, java.util.Set.of());
            if (illFormed != null) {
                throw new PaymentRefused("invalid_payment", "payment header " + illFormed + ": " + WellFormedText.MESSAGE);
            }
            return n;
        } catch (java.io.IOException e) {
            throw new PaymentRefused("invalid_payment", "payment header is not base64-encoded JSON");
        }
    }

    private static void checkV2Accepted(JsonNode a, PaymentRequirement req) {
        if (!req.maxAmountRequired().equals(a.path("amount").asText())) {
            throw new PaymentRefused("amount_mismatch", "accepted.amount " + a.path("amount").asText()
                    + " is not the price of this call (" + req.maxAmountRequired() + " atomic units)");
        }
        if (!req.payTo().equalsIgnoreCase(a.path("payTo").asText())) {
            throw new PaymentRefused("wrong_payee", "accepted.payTo " + a.path("payTo").asText()
                    + " is not this service's wallet " + req.payTo());
        }
        if (!req.asset().equalsIgnoreCase(a.path("asset").asText())) {
            throw new PaymentRefused("wrong_asset", "accepted.asset " + a.path("asset").asText()
                    + " is not the accepted token " + req.asset());
        }
    }

    private static DecodedPayment evm(int version, JsonNode payload, PaymentRequirement req, ObjectNode v1, Instant now) {
        JsonNode a = payload.path("authorization");
        String signature = payload.path("signature").asText("");
        if (!a.isObject() || !HEX.matcher(signature).matches()) {
            throw new PaymentRefused("invalid_payment", "exact EVM payment needs payload.signature (hex) and payload.authorization");
        }
        String from = field(a, "from", ADDRESS, "an address");
        String to = field(a, "to", ADDRESS, "an address");
        String nonce = field(a, "nonce", NONCE, "32 bytes of hex");
        BigInteger value = new BigInteger(field(a, "value", UINT, "an unsigned integer string"));
        BigInteger validAfter = new BigInteger(field(a, "validAfter", UINT, "an unsigned integer string"));
        BigInteger validBefore = new BigInteger(field(a, "validBefore", UINT, "an unsigned integer string"));
        if (!to.equalsIgnoreCase(req.payTo())) {
            throw new PaymentRefused("wrong_payee", "the authorization pays " + to + "; this call is paid to " + req.payTo());
        }
        BigInteger price = new BigInteger(req.maxAmountRequired());
        if (value.compareTo(price) != 0) {
            throw new PaymentRefused("amount_mismatch", "the authorization is for " + value
                    + " atomic units; this call costs exactly " + price + " (scheme exact)");
        }
        long nowS = now.getEpochSecond();
        if (validBefore.compareTo(BigInteger.valueOf(nowS + MIN_REMAINING_SECONDS)) < 0) {
            throw new PaymentRefused("payment_expired", "the authorization expired (validBefore " + validBefore
                    + " is not at least " + MIN_REMAINING_SECONDS + " s after now, " + nowS + "); sign a new payment");
        }
        if (validAfter.compareTo(BigInteger.valueOf(nowS)) > 0) {
            throw new PaymentRefused("payment_not_yet_valid", "the authorization is valid only after " + validAfter
                    + " (now " + nowS + ")");
        }
        String key = "evm:" + req.v2Network() + ":" + req.asset().toLowerCase(Locale.ROOT) + ":"
                + from.toLowerCase(Locale.ROOT) + ":" + nonce.toLowerCase(Locale.ROOT);
        Instant before = validBefore.bitLength() < 63 && validBefore.longValue() < Instant.MAX.getEpochSecond()
                ? Instant.ofEpochSecond(validBefore.longValue()) : Instant.MAX;
        return new DecodedPayment(version, DecodedPayment.Rail.EVM, req.network(), from, value, before, key,
                nonce.toLowerCase(Locale.ROOT), v1, req);
    }

    private static DecodedPayment solana(int version, JsonNode payload, PaymentRequirement req, ObjectNode v1) {
        String tx = payload.path("transaction").asText("");
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(tx);
        } catch (IllegalArgumentException e) {
            throw new PaymentRefused("invalid_payment", "Solana payment needs payload.transaction in base64");
        }
        String signature = firstSignature(raw);
        return new DecodedPayment(version, DecodedPayment.Rail.SOLANA, req.network(), null,
                new BigInteger(req.maxAmountRequired()), null, "svm:" + signature, null, v1, req);
    }

    /**
     * The first non-empty signature of a wire-format transaction (compact-u16 count, then 64-byte
     * signatures): the payer's, since the facilitator's fee-payer slot is still empty.
     */
    static String firstSignature(byte[] tx) {
        if (tx.length < 1) {
            throw new PaymentRefused("invalid_payment", "Solana transaction is empty");
        }
        int count = 0;
        int shift = 0;
        int i = 0;
        while (true) {
            if (i >= tx.length || i > 2) {
                throw new PaymentRefused("invalid_payment", "Solana transaction has a malformed signature count");
            }
            int b = tx[i++] & 0xff;
            count |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                break;
            }
            shift += 7;
        }
        if (count < 1 || i + 64L * count > tx.length) {
            throw new PaymentRefused("invalid_payment", "Solana transaction is truncated or has no signatures");
        }
        for (int s = 0; s < count; s++) {
            int off = i + 64 * s;
            boolean empty = true;
            for (int k = 0; k < 64 && empty; k++) {
                empty = tx[off + k] == 0;
            }
            if (!empty) {
                byte[] sig = new byte[64];
                System.arraycopy(tx, off, sig, 0, 64);
                return Base58.encode(sig); // solanaj
            }
        }
        throw new PaymentRefused("invalid_payment", "Solana transaction is not signed by the payer");
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw new PaymentRefused("invalid_payment", "payment has no '" + field + "'");
        }
        return v.asText();
    }

    private static String field(JsonNode a, String name, Pattern shape, String what) {
        JsonNode v = a.get(name);
        String s = v == null ? "" : v.isNumber() ? v.asText() : v.isTextual() ? v.asText() : "";
        if (!shape.matcher(s).matches()) {
            throw new PaymentRefused("invalid_payment", "payload.authorization." + name + " must be " + what);
        }
        return s;
    }
}
