package dev.agentpay.webhook.delivery.service;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The two signatures every delivery carries.
 * <ul>
 * <li>{@code X-Service-Signature}: lowercase hex HMAC-SHA256 of the raw body bytes, keyed with the UTF-8
 * bytes of the subscription secret exactly as registered.</li>
 * <li>{@code webhook-signature} (Standard Webhooks): {@code v1,} + base64 HMAC-SHA256 of
 * {@code "<webhook-id>.<webhook-timestamp>.<body>"}, keyed with the base64-decoded remainder of a
 * {@code whsec_} secret, or with the secret's bytes when it has no {@code whsec_} prefix.</li>
 * </ul>
 */
public final class Signatures {

    public static final String WHSEC_PREFIX = "whsec_";

    private Signatures() {
    }

    public static String serviceSignature(String secret, byte[] body) {
        return HexFormat.of().formatHex(hmac(secret.getBytes(StandardCharsets.UTF_8), body));
    }

    public static String standardSignature(String secret, String webhookId, long timestamp, byte[] body) {
        byte[] prefix = (webhookId + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8);
        byte[] content = new byte[prefix.length + body.length];
        System.arraycopy(prefix, 0, content, 0, prefix.length);
        System.arraycopy(body, 0, content, prefix.length, body.length);
        return "v1," + Base64.getEncoder().encodeToString(hmac(standardKey(secret), content));
    }

    /**
     * The secret in the Standard Webhooks form ({@code whsec_} + base64 of the key bytes) that verifies
     * this subscription's {@code webhook-signature} with the {@code standardwebhooks} libraries' defaults
     * ({@code new Webhook(secret)}): a {@code whsec_} secret as registered, any other secret's UTF-8 bytes
     * base64-encoded behind {@code whsec_}. It is the same key, so nothing stored changes.
     */
    public static String standardSecret(String secret) {
        if (secret.startsWith(WHSEC_PREFIX)) {
            return secret;
        }
        return WHSEC_PREFIX + Base64.getEncoder().encodeToString(secret.getBytes(StandardCharsets.UTF_8));
    }

    /** The Standard Webhooks key of a subscription secret. */
    public static byte[] standardKey(String secret) {
        if (secret.startsWith(WHSEC_PREFIX)) {
            return Base64.getDecoder().decode(secret.substring(WHSEC_PREFIX.length()));
        }
        return secret.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] hmac(byte[] key, byte[] content) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(content);
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException(e);
        }
    }
}
