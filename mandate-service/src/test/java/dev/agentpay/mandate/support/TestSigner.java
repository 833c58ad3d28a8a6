package dev.agentpay.mandate.support;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Computes what a partner signs, independently of the service's code: the canonical string assembled by
 * hand from already-canonical terms text, HMAC-SHA256 with the secret's UTF-8 bytes, lowercase hex.
 */
public final class TestSigner {

    private static final ObjectMapper JSON = new ObjectMapper();

    private TestSigner() {
    }

    /** The canonical mandate text; {@code canonicalTerms} must already be sorted and JS-formatted. */
    public static String canonical(String counterparty, String expiresAtIso, String id, String proposer, String scope,
            String canonicalTerms) {
        return "{\"counterparty_agent_id\":" + q(counterparty) + ",\"expires_at\":" + q(expiresAtIso) + ",\"id\":" + q(id)
                + ",\"proposer_agent_id\":" + q(proposer) + ",\"scope\":" + q(scope) + ",\"terms\":" + canonicalTerms + "}";
    }

    public static String hmac(String canonical, String secret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(canonical.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    public static String sha256Hash(String canonical) {
        try {
            return "0x" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(canonical.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** The same signature with its first hex digit changed. */
    public static String tamper(String signatureHex) {
        char c = signatureHex.charAt(0);
        return (c == '0' ? '1' : '0') + signatureHex.substring(1);
    }

    private static String q(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
