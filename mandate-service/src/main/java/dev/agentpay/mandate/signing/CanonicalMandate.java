package dev.agentpay.mandate.signing;

import java.time.Instant;

/**
 * The canonical signing bytes of a mandate, byte-exact with what a JavaScript partner computes
 * (see the spec's "Canonical signing encoding"), and the HMAC and hash over them.
 *
 * <p>Placeholder contract: the implementation is being completed on the {@code canonical} branch.
 */
public final class CanonicalMandate {

    private CanonicalMandate() {
    }

    /**
     * Normalizes a {@code terms} JSON text once, at creation, into the form that is stored verbatim
     * and signed: keys sorted at every level, JavaScript number and string formatting.
     *
     * @throws IllegalArgumentException if {@code termsJson} is not a JSON object
     */
    public static String canonicalTerms(String termsJson) {
        throw new UnsupportedOperationException("pending");
    }

    /** UTF-8 bytes of {@code {"counterparty_agent_id":..,"expires_at":..,"id":..,"proposer_agent_id":..,"scope":..,"terms":..}}. */
    public static byte[] bytes(String counterpartyAgentId, Instant expiresAt, String id, String proposerAgentId,
            String scope, String canonicalTerms) {
        throw new UnsupportedOperationException("pending");
    }

    /** {@code Date.prototype.toISOString()} of the instant: UTC, millisecond precision. */
    public static String isoMillis(Instant instant) {
        throw new UnsupportedOperationException("pending");
    }

    /** Lowercase hex HMAC-SHA256 of {@code bytes} keyed with {@code secret}. */
    public static String hmacHex(byte[] bytes, String secret) {
        throw new UnsupportedOperationException("pending");
    }

    /** Whether {@code signatureHex} is the HMAC of {@code bytes}; constant time. */
    public static boolean verify(byte[] bytes, String secret, String signatureHex) {
        throw new UnsupportedOperationException("pending");
    }

    /** {@code proto_mandate_hash}: {@code 0x} + lowercase hex SHA-256 of the canonical bytes. */
    public static String mandateHash(byte[] bytes) {
        throw new UnsupportedOperationException("pending");
    }
}
