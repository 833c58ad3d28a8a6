package dev.agentpay.mandate.signing;

import com.fasterxml.jackson.databind.JsonNode;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The canonical signing bytes of a mandate, byte-exact with what a JavaScript partner computes
 * (see the spec's "Canonical signing encoding"), and the HMAC and hash over them.
 *
 * <p>The reference is {@code src/test/js/generate-canonical-vectors.mjs}:
 * <pre>{@code
 * JSON.stringify({counterparty_agent_id, expires_at: new Date(expires_at).toISOString(), id,
 *                 proposer_agent_id, scope, terms: sortKeysDeep(JSON.parse(termsText))})
 * }</pre>
 * encoded as UTF-8. Terms are normalized once at creation by {@link #canonicalTerms(JsonNode)} (the tree the
 * request bound, numbers exact; {@link #canonicalTerms(String)} reads a text as a partner does) and the
 * canonical text is what is stored and signed, so no storage round trip can change key order or
 * number formatting. {@code expires_at} goes through {@link #isoMillis(Instant)}; {@link JsDate#parse}
 * reads the partner's string.
 *
 * <p>Signatures are the lowercase hex HMAC-SHA256 of the bytes keyed with the UTF-8 bytes of the
 * partner's signing secret; {@link #verify} accepts exactly 64 lowercase hex digits and compares in
 * constant time. {@code proto_mandate_hash} is {@code 0x} + lowercase hex SHA-256 of the same bytes:
 * SHA-256 rather than keccak-256 because any partner can reproduce it with the JDK, Node's
 * {@code crypto} or {@code sha256sum}, without an Ethereum library.
 */
public final class CanonicalMandate {

    private static final HexFormat HEX = HexFormat.of();
    private static final int SIGNATURE_HEX_LENGTH = 64;

    private CanonicalMandate() {
    }

    /**
     * Normalizes a {@code terms} JSON text once, at creation, into the form that is stored verbatim
     * and signed: keys sorted at every level, JavaScript number and string formatting.
     *
     * @throws IllegalArgumentException if {@code termsJson} is not a JSON object
     */
    public static String canonicalTerms(String termsJson) {
        return CanonicalJson.canonicalObject(termsJson);
    }

    /**
     * Same as {@link #canonicalTerms(String)} for terms already parsed by Jackson.
     *
     * @throws IllegalArgumentException if {@code terms} is not a JSON object
     */
    public static String canonicalTerms(JsonNode terms) {
        return CanonicalJson.canonicalObject(terms);
    }

    /** UTF-8 bytes of {@code {"counterparty_agent_id":..,"expires_at":..,"id":..,"proposer_agent_id":..,"scope":..,"terms":..}}. */
    public static byte[] bytes(String counterpartyAgentId, Instant expiresAt, String id, String proposerAgentId,
            String scope, String canonicalTerms) {
        return bytes(counterpartyAgentId, expiresAt, id, proposerAgentId, scope, null, canonicalTerms);
    }

    /**
     * The role-bound form ({@code hmac-role}, v0.2): the same object with {@code signer_role} in its
     * alphabetical place between {@code scope} and {@code terms}; {@code signerRole} null gives the v0.1 bytes.
     */
    public static byte[] bytes(String counterpartyAgentId, Instant expiresAt, String id, String proposerAgentId,
            String scope, String signerRole, String canonicalTerms) {
        StringBuilder out = new StringBuilder(160 + (canonicalTerms == null ? 0 : canonicalTerms.length()));
        out.append("{\"counterparty_agent_id\":");
        CanonicalJson.quote(out, required(counterpartyAgentId, "counterparty_agent_id"));
        out.append(",\"expires_at\":");
        if (expiresAt == null) {
            throw new IllegalArgumentException("expires_at is required");
        }
        CanonicalJson.quote(out, isoMillis(expiresAt));
        out.append(",\"id\":");
        CanonicalJson.quote(out, required(id, "id"));
        out.append(",\"proposer_agent_id\":");
        CanonicalJson.quote(out, required(proposerAgentId, "proposer_agent_id"));
        out.append(",\"scope\":");
        CanonicalJson.quote(out, required(scope, "scope"));
        if (signerRole != null) {
            out.append(",\"signer_role\":");
            CanonicalJson.quote(out, signerRole);
        }
        // Already canonical (stored as produced by canonicalTerms), so it is embedded as is.
        out.append(",\"terms\":").append(required(canonicalTerms, "terms")).append('}');
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The signing bytes of a mandate with a budget (issue 28): {@code bytes} (any of the forms above, an object
     * whose first key sorts after {@code "budget"}) with the member {@code "budget":<budgetJson>} inserted first,
     * where {@code JSON.stringify} of the key-sorted object puts it. {@code budgetJson} null (no budget) returns
     * {@code bytes} unchanged, so a mandate without a budget signs exactly what it signed before.
     *
     * @param budgetJson the canonical budget object ({@code BudgetTerms.canonicalJson()}), or null
     */
    public static byte[] withBudget(byte[] bytes, String budgetJson) {
        if (budgetJson == null) {
            return bytes;
        }
        if (bytes.length < 2 || bytes[0] != '{') {
            throw new IllegalArgumentException("signing bytes must be a JSON object");
        }
        byte[] member = ("\"budget\":" + budgetJson + ",").getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[bytes.length + member.length];
        out[0] = '{';
        System.arraycopy(member, 0, out, 1, member.length);
        System.arraycopy(bytes, 1, out, 1 + member.length, bytes.length - 1);
        return out;
    }

    /** {@code Date.prototype.toISOString()} of the instant: UTC, millisecond precision. */
    public static String isoMillis(Instant instant) {
        return JsDate.toIsoString(instant);
    }

    /** Lowercase hex HMAC-SHA256 of {@code bytes} keyed with {@code secret}. */
    public static String hmacHex(byte[] bytes, String secret) {
        return HEX.formatHex(hmac(bytes, secret));
    }

    /** Whether {@code signatureHex} is the HMAC of {@code bytes}; constant time. */
    public static boolean verify(byte[] bytes, String secret, String signatureHex) {
        byte[] expected = hmac(bytes, secret);
        byte[] given = decodeLowerHex(signatureHex);
        if (given == null) {
            // Still compare, so a malformed signature costs the same as a wrong one.
            MessageDigest.isEqual(expected, new byte[expected.length]);
            return false;
        }
        return MessageDigest.isEqual(expected, given);
    }

    /** {@code proto_mandate_hash}: {@code 0x} + lowercase hex SHA-256 of the canonical bytes. */
    public static String mandateHash(byte[] bytes) {
        try {
            return "0x" + HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    private static byte[] hmac(byte[] bytes, String secret) {
        if (secret == null || secret.isEmpty()) {
            throw new IllegalArgumentException("signing secret is required");
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal(bytes);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 is unavailable", e);
        }
    }

    /** The 32 bytes of a 64-digit lowercase hex string, or null for anything else. */
    private static byte[] decodeLowerHex(String hex) {
        if (hex == null || hex.length() != SIGNATURE_HEX_LENGTH) {
            return null;
        }
        for (int i = 0; i < hex.length(); i++) {
            char c = hex.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return null;
            }
        }
        return HEX.parseHex(hex);
    }

    private static String required(String value, String field) {
        if (value == null) {
            throw new IllegalArgumentException(field + " is required");
        }
        return value;
    }
}
