package dev.agentpay.webhook.subscription.service;

import dev.agentpay.commons.error.ApiException;
import dev.agentpay.webhook.config.WebhookConfig;
import dev.agentpay.webhook.domain.EventTypes;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import dev.agentpay.webhook.delivery.client.TargetGuard;
import dev.agentpay.webhook.delivery.service.Signatures;

/**
 * Validation of what a partner writes into a subscription: the URL shape (the address check is
 * {@link TargetGuard}'s), the event types and the secret strength.
 */
@ApplicationScoped
public class SubscriptionRules {

    public static final int MIN_SECRET_LENGTH = 24;
    public static final int MAX_SECRET_LENGTH = 256;
    public static final int MIN_DISTINCT_SECRET_CHARS = 8;
    public static final int MIN_WHSEC_KEY_BYTES = 24;
    public static final int MAX_WHSEC_KEY_BYTES = 64;
    public static final int MAX_URL_LENGTH = 2048;
    public static final int MAX_DESCRIPTION_LENGTH = 256;

    @Inject
    WebhookConfig config;

    /** Checks the shape of a URL (present: the request record requires it) and returns its host. */
    public String checkUrl(String url) {
        if (url.length() > MAX_URL_LENGTH) {
            throw ApiException.badRequest("invalid_url", "url: longer than " + MAX_URL_LENGTH + " characters");
        }
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw ApiException.badRequest("invalid_url", "url: not a valid absolute URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https") && !(scheme.equals("http") && config.allowHttp())) {
            throw ApiException.badRequest("invalid_url",
                    config.allowHttp() ? "url: scheme must be https or http" : "url: scheme must be https");
        }
        if (uri.getHost() == null || uri.getHost().isBlank()) {
            throw ApiException.badRequest("invalid_url", "url: host required");
        }
        if (uri.getRawUserInfo() != null) {
            throw ApiException.badRequest("invalid_url", "url: credentials in the URL are not accepted");
        }
        if (uri.getRawFragment() != null) {
            throw ApiException.badRequest("invalid_url", "url: fragments are not accepted");
        }
        if (uri.getPort() != -1 && (uri.getPort() < 1 || uri.getPort() > 65535)) {
            throw ApiException.badRequest("invalid_url", "url: port out of range");
        }
        return uri.getHost();
    }

    /** Checks and de-duplicates the event types (at least one: the request record requires it), keeping the caller's order. */
    public List<String> checkEvents(List<String> events) {
        Set<String> out = new LinkedHashSet<>();
        for (String e : events) {
            if (!EventTypes.known(e)) {
                throw ApiException.badRequest("unknown_event_type",
                        "events: unknown event type '" + e + "'; known types: " + String.join(", ", EventTypes.ALL));
            }
            out.add(e);
        }
        return new ArrayList<>(out);
    }

    /**
     * A secret is 24 to 256 printable ASCII characters with no whitespace and at least 8 distinct
     * characters; a {@code whsec_} secret must carry base64 that decodes to 24 to 64 bytes. Present: the
     * request record requires it.
     */
    public void checkSecret(String secret) {
        if (secret.length() < MIN_SECRET_LENGTH || secret.length() > MAX_SECRET_LENGTH) {
            throw ApiException.badRequest("weak_secret",
                    "secret: must be " + MIN_SECRET_LENGTH + " to " + MAX_SECRET_LENGTH + " characters");
        }
        for (int i = 0; i < secret.length(); i++) {
            char c = secret.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                throw ApiException.badRequest("weak_secret", "secret: only printable ASCII without spaces is accepted");
            }
        }
        if (secret.chars().distinct().count() < MIN_DISTINCT_SECRET_CHARS) {
            throw ApiException.badRequest("weak_secret",
                    "secret: too little variety (at least " + MIN_DISTINCT_SECRET_CHARS + " distinct characters)");
        }
        if (secret.startsWith(Signatures.WHSEC_PREFIX)) {
            byte[] key;
            try {
                key = Base64.getDecoder().decode(secret.substring(Signatures.WHSEC_PREFIX.length()));
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest("weak_secret", "secret: a whsec_ secret must be followed by base64");
            }
            if (key.length < MIN_WHSEC_KEY_BYTES || key.length > MAX_WHSEC_KEY_BYTES) {
                throw ApiException.badRequest("weak_secret", "secret: a whsec_ key must decode to "
                        + MIN_WHSEC_KEY_BYTES + " to " + MAX_WHSEC_KEY_BYTES + " bytes");
            }
        }
    }
}
