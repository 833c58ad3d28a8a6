package dev.agentpay.discovery.documents.domain;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One published document, rendered once: its bytes, media type and strong ETag (a digest of the
 * bytes, so equal content always has the same tag on every replica).
 */
public record StaticDocument(byte[] body, String contentType, String etag, String cacheControl) {

    /** Answers cacheable for five minutes by anyone (the spec's limit for static discovery answers). */
    public static final String PUBLIC_5_MIN = "public, max-age=300";
    /** Content addressed by an id that never changes. */
    public static final String IMMUTABLE = "public, max-age=31536000, immutable";

    public static StaticDocument of(byte[] body, String contentType, String cacheControl) {
        return new StaticDocument(body, contentType, "\"" + digest(body) + "\"", cacheControl);
    }

    public static StaticDocument of(String body, String contentType) {
        return of(body.getBytes(StandardCharsets.UTF_8), contentType, PUBLIC_5_MIN);
    }

    /**
     * Whether an {@code If-None-Match} header value matches this document (RFC 9110 weak comparison,
     * as the spec requires for If-None-Match: a {@code W/} prefix is ignored).
     */
    public boolean matches(String ifNoneMatch) {
        if (ifNoneMatch == null || ifNoneMatch.isBlank()) {
            return false;
        }
        for (String candidate : ifNoneMatch.split(",")) {
            String c = candidate.trim();
            if (c.equals("*")) {
                return true;
            }
            if (c.startsWith("W/")) {
                c = c.substring(2);
            }
            if (c.equals(etag)) {
                return true;
            }
        }
        return false;
    }

    private static String digest(byte[] body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body), 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
