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
import java.util.Base64;
import java.util.Optional;

/**
 * The console's sessions: the partner's API key held in this process's memory only, behind a random session id
 * that the browser keeps in an HttpOnly, SameSite=Strict cookie; each session has its own CSRF token that every
 * form posts back. The key never reaches the browser after sign-in (no localStorage, no cookie value, no page).
 * Sessions end after {@code discovery.pages.console-session-idle} without use, at sign-out, or with the process
 * (README "Pages": one replica, or sticky sessions, per console user).
 */
@ApplicationScoped
public class ConsoleSessions {

    public static final String COOKIE = "agentpay_console";

    /** One signed-in partner. */
    public record Session(String id, String apiKey, String csrf) {
    }

    private static final SecureRandom RANDOM = new SecureRandom();

    @Inject
    PagesConfig config;

    Cache<String, Session> sessions;

    @PostConstruct
    void init() {
        sessions = Caffeine.newBuilder().expireAfterAccess(config.consoleSessionIdle()).maximumSize(100_000).build();
    }

    public Session open(String apiKey) {
        Session s = new Session(token(), apiKey, token());
        sessions.put(s.id(), s);
        return s;
    }

    public Optional<Session> find(String id) {
        return id == null || id.isBlank() ? Optional.empty() : Optional.ofNullable(sessions.getIfPresent(id));
    }

    public void close(String id) {
        if (id != null) {
            sessions.invalidate(id);
        }
    }

    /** The form's token equals the session's, compared in constant time. */
    public static boolean csrfMatches(Session s, String token) {
        return token != null && MessageDigest.isEqual(s.csrf().getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8));
    }

    static String token() {
        byte[] b = new byte[32];
        RANDOM.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }
}
