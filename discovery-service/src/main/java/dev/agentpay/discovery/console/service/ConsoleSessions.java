package dev.agentpay.discovery.console.service;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.agentpay.discovery.pages.config.PagesConfig;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;

/**
 * The console's sessions: the partner's credential held in this process's memory only, behind a random session id
 * that the browser keeps in an HttpOnly, SameSite=Strict cookie; each session has its own CSRF token that every
 * form posts back. The credential is either the partner's API key or an OAuth access token the console obtained
 * with a client id and secret (the secret itself is used once, for the exchange, and kept nowhere); it never
 * reaches the browser after sign-in (no localStorage, no cookie value, no page). Sessions end after
 * {@code discovery.pages.console-session-idle} without use, when an access token expires (the console cannot renew
 * it without the secret, so the partner signs in again), at sign-out, or with the process (README "Pages": one
 * replica, or sticky sessions, per console user).
 */
@ApplicationScoped
public class ConsoleSessions {

    public static final String COOKIE = "agentpay_console";

    /**
     * What the console sends to the API for a session: {@code x-api-key: sk_...} or {@code Authorization: Bearer ...}.
     * {@code label} says which (never the secret part), {@code scopes} the token's scopes (null for an API key: the
     * key's own scopes are the API's business), {@code expiresAt} the token's end (null for an API key).
     */
    public record Credential(String header, String value, String kind, String label, Set<String> scopes, Instant expiresAt) {

        public static Credential apiKey(String key) {
            return new Credential("x-api-key", key, "api_key", "API key sk_…" + key.substring(key.length() - 4), null, null);
        }

        public static Credential bearer(String accessToken, String clientId, Set<String> scopes, Instant expiresAt) {
            return new Credential("Authorization", "Bearer " + accessToken, "oauth", "OAuth client " + clientId,
                    Set.copyOf(scopes), expiresAt);
        }

        public boolean oauth() {
            return "oauth".equals(kind);
        }

        /** A token expires 30 s early, so that no page is half read with a token that dies in flight. */
        public boolean expired(Instant now) {
            return expiresAt != null && !now.isBefore(expiresAt.minusSeconds(30));
        }

        /** Whether the session may do what needs {@code scope} (an API key: the API decides, so yes). */
        public boolean allows(String scope) {
            return scopes == null || scopes.contains(scope);
        }

        /** The token's scopes as a sorted, space-separated line (empty for an API key). */
        public String scopeLine() {
            return scopes == null ? "" : String.join(" ", new java.util.TreeSet<>(scopes));
        }

        /** When a token's session ends, as the page shows it ({@code 17:42 UTC}); empty for an API key. */
        public String until() {
            return expiresAt == null ? "" : java.time.format.DateTimeFormatter.ofPattern("HH:mm 'UTC'")
                    .withZone(java.time.ZoneOffset.UTC).format(expiresAt.minusSeconds(30));
        }

        @Override
        public String toString() {
            return "Credential[" + label + "]"; // never the key or the token
        }
    }

    /** One signed-in partner. */
    public record Session(String id, Credential credential, String csrf) {

        @Override
        public String toString() {
            return "Session[" + credential.label() + "]";
        }
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    @Inject
    PagesConfig config;

    Cache<String, Session> sessions;

    @PostConstruct
    void init() {
        sessions = Caffeine.newBuilder().expireAfterAccess(config.consoleSessionIdle()).maximumSize(100_000).build();
    }

    public Session open(Credential credential) {
        Session s = new Session(token(), credential, token());
        sessions.put(s.id(), s);
        return s;
    }

    /** The live session of this id; a session whose access token expired is no session (see {@link #expired}). */
    public Optional<Session> find(String id) {
        if (id == null || id.isBlank()) {
            return Optional.empty();
        }
        Session s = sessions.getIfPresent(id);
        return s == null || s.credential().expired(Instant.now()) ? Optional.empty() : Optional.of(s);
    }

    /** Whether this id names a session that ended because its access token expired (it is closed now). */
    public boolean expired(String id) {
        Session s = id == null || id.isBlank() ? null : sessions.getIfPresent(id);
        if (s != null && s.credential().expired(Instant.now())) {
            sessions.invalidate(id);
            return true;
        }
        return false;
    }

    public void close(String id) {
        if (id != null) {
            sessions.invalidate(id);
        }
    }

    /** The form's token equals the session's, compared in constant time. */
    public static boolean csrfMatches(Session s, String token) {
        return tokensMatch(s.csrf(), token);
    }

    /** Two tokens equal, compared in constant time; a missing one never matches. */
    public static boolean tokensMatch(String expected, String token) {
        return expected != null && token != null && !expected.isEmpty()
                && MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
    }

    /** A fresh random token (32 bytes, base64url): session ids, CSRF tokens. */
    public static String token() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
