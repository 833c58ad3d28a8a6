package dev.agentpay.commons.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * API keys are {@code sk_} followed by 32 random bytes in lowercase hex. Only their SHA-256 is ever
 * stored: the keys carry 256 bits of entropy, so a fast unsalted hash is enough to make a leaked
 * table useless, and it lets a key be looked up by its hash.
 */
public final class ApiKeys {

    /** The shape of an API key: {@code sk_} and 64 lowercase hex digits (a regular expression, anchored for JSON Schema). */
    public static final String PATTERN = "^sk_[0-9a-f]{64}$";
    private static final Pattern SHAPE = Pattern.compile(PATTERN);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final HexFormat HEX = HexFormat.of();

    private ApiKeys() {
    }

    public static String generate() {
        return "sk_" + randomHex(32);
    }

    /** Random lowercase hex of {@code bytes} bytes; also used for signing secrets. */
    public static String randomHex(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return HEX.formatHex(b);
    }

    public static boolean wellFormed(String key) {
        return key != null && SHAPE.matcher(key).matches();
    }

    public static String hash(String key) {
        return HEX.formatHex(sha256(key.getBytes(StandardCharsets.UTF_8)));
    }

    /** Compares two secrets in time independent of where they differ. */
    public static boolean constantTimeEquals(String a, String b) {
        if (a == null || b == null) {
            return false;
        }
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    static byte[] sha256(byte[] in) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(in);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
