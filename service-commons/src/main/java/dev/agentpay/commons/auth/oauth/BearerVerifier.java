package dev.agentpay.commons.auth.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.commons.auth.AuthConfig;
import dev.agentpay.commons.auth.Scopes;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.jboss.logging.Logger;
import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.PublicJsonWebKey;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.MalformedClaimException;
import org.jose4j.jwt.consumer.ErrorCodes;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.jwt.consumer.JwtConsumer;
import org.jose4j.jwt.consumer.JwtConsumerBuilder;
import org.jose4j.keys.resolvers.JwksVerificationKeyResolver;

/**
 * Verifies OAuth 2.0 access tokens (RFC 9068 JWTs, {@code typ: at+jwt}) against the issuer's JWK set:
 * signature (ES256 only: {@code alg: none}, HS256 keyed with the public key and every other algorithm are
 * refused before any key is touched), {@code kid} among the published keys, issuer, audience, expiry (with
 * {@code platform.auth.oauth.clock-skew}), a lifetime of at most 15 minutes, {@code sub}, {@code jti} and a
 * scope string of known scopes only. The key set is cached ({@code jwks-max-age}) and fetched again at once
 * when a token names an unknown {@code kid} (at most once per {@code jwks-min-refetch}); concurrent fetches
 * share one request. Nothing here logs a token or any part of one.
 */
@ApplicationScoped
public class BearerVerifier {

    private static final Logger LOG = Logger.getLogger(BearerVerifier.class);

    /** Three base64url parts; a signed JWT has no other shape. */
    private static final Pattern SHAPE = Pattern.compile("^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$");
    static final int MAX_LENGTH = 4096;
    /** RFC 9068: access tokens carry this {@code typ}, so an ID token or another JWT cannot pass as one. */
    public static final String TYPE = "at+jwt";
    public static final String ALGORITHM = AlgorithmIdentifiers.ECDSA_USING_P256_CURVE_AND_SHA256;
    /** The longest lifetime a token may have ({@code exp} at most this far from now). */
    public static final Duration MAX_LIFETIME = Duration.ofMinutes(15);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    AuthConfig config;

    @Inject
    JwksSource source;

    private record Keys(List<String> kids, JwtConsumer consumer, Instant fetchedAt) {
    }

    private volatile Keys keys;
    private volatile Instant lastForced = Instant.EPOCH;
    private Uni<Keys> inflight;

    /** Verifies {@code token}; fails with {@link InvalidTokenException} or {@link KeysUnavailableException}. */
    public Uni<AccessToken> verify(String token) {
        final String kid;
        try {
            kid = header(token);
        } catch (InvalidTokenException e) {
            return Uni.createFrom().failure(e);
        }
        Keys current = keys;
        Instant now = Instant.now();
        Uni<Keys> ready;
        if (current == null) {
            ready = refresh();
        } else if (!current.kids().contains(kid)) {
            if (Duration.between(lastForced, now).compareTo(config.oauth().jwksMinRefetch()) < 0) {
                return Uni.createFrom().failure(new InvalidTokenException("token signed by an unknown key"));
            }
            lastForced = now;
            ready = refresh().onFailure().recoverWithItem(current);
        } else {
            if (current.fetchedAt().plus(config.oauth().jwksMaxAge()).isBefore(now)) {
                // stale: fetch in the background, judge this token with what is known
                refresh().subscribe().with(k -> { }, e -> { });
            }
            ready = Uni.createFrom().item(current);
        }
        return ready.map(k -> {
            if (!k.kids().contains(kid)) {
                throw new InvalidTokenException("token signed by an unknown key");
            }
            return claims(k.consumer(), token);
        });
    }

    /** The key set as last read, or {@code null} (for tests and readiness). */
    public List<String> knownKeyIds() {
        Keys k = keys;
        return k == null ? null : k.kids();
    }

    /** Reads the header: {@code alg} must be ES256, {@code typ} at+jwt and a {@code kid} named. Returns the kid. */
    static String header(String token) {
        if (token == null || token.length() > MAX_LENGTH || !SHAPE.matcher(token).matches()) {
            throw new InvalidTokenException("malformed token: not a signed JWT");
        }
        JsonNode h;
        try {
            h = JSON.readTree(new String(Base64.getUrlDecoder().decode(token.substring(0, token.indexOf('.'))), StandardCharsets.UTF_8));
        } catch (Exception e) {
            throw new InvalidTokenException("malformed token: unreadable header");
        }
        if (h == null || !h.isObject()) {
            throw new InvalidTokenException("malformed token: unreadable header");
        }
        if (!ALGORITHM.equals(h.path("alg").asText(null))) {
            throw new InvalidTokenException("token algorithm not accepted (only " + ALGORITHM + ")");
        }
        if (h.has("crit")) {
            throw new InvalidTokenException("token header names critical extensions");
        }
        if (!h.path("kid").isTextual() || h.get("kid").asText().isEmpty()) {
            throw new InvalidTokenException("token names no signing key (kid)");
        }
        return h.get("kid").asText();
    }

    private AccessToken claims(JwtConsumer consumer, String token) {
        JwtClaims c;
        try {
            c = consumer.processToClaims(token);
        } catch (InvalidJwtException e) {
            throw new InvalidTokenException(reason(e));
        }
        try {
            Object scope = c.getClaimValue("scope");
            if (scope != null && !(scope instanceof String)) {
                throw new InvalidTokenException("token scope is not a string");
            }
            Set<String> scopes;
            try {
                scopes = Scopes.parse((String) scope);
            } catch (IllegalArgumentException e) {
                throw new InvalidTokenException("token names an unknown scope");
            }
            Object client = c.getClaimValue("client_id");
            if (client != null && !(client instanceof String)) {
                throw new InvalidTokenException("token client_id is not a string");
            }
            return new AccessToken(c.getSubject(), (String) client, Set.copyOf(scopes), c.getJwtId(),
                    Instant.ofEpochSecond(c.getExpirationTime().getValue()));
        } catch (MalformedClaimException e) {
            throw new InvalidTokenException("token claims are malformed");
        }
    }

    private static String reason(InvalidJwtException e) {
        if (e.hasExpired()) {
            return "token expired";
        }
        if (e.hasErrorCode(ErrorCodes.AUDIENCE_INVALID) || e.hasErrorCode(ErrorCodes.AUDIENCE_MISSING)) {
            return "token is not for this audience";
        }
        if (e.hasErrorCode(ErrorCodes.ISSUER_INVALID) || e.hasErrorCode(ErrorCodes.ISSUER_MISSING)) {
            return "token is not from this issuer";
        }
        if (e.hasErrorCode(ErrorCodes.SIGNATURE_INVALID)) {
            return "token signature does not verify";
        }
        if (e.hasErrorCode(ErrorCodes.EXPIRATION_TOO_FAR_IN_FUTURE)) {
            return "token lifetime exceeds " + MAX_LIFETIME.toMinutes() + " minutes";
        }
        if (e.hasErrorCode(ErrorCodes.TYPE_INVALID) || e.hasErrorCode(ErrorCodes.TYPE_MISSING)) {
            return "not an access token (typ must be " + TYPE + ")";
        }
        if (e.hasErrorCode(ErrorCodes.ISSUED_AT_INVALID_FUTURE) || e.hasErrorCode(ErrorCodes.NOT_YET_VALID)) {
            return "token is not valid yet";
        }
        if (e.hasErrorCode(ErrorCodes.EXPIRATION_MISSING) || e.hasErrorCode(ErrorCodes.SUBJECT_MISSING)
                || e.hasErrorCode(ErrorCodes.JWT_ID_MISSING) || e.hasErrorCode(ErrorCodes.ISSUED_AT_MISSING)) {
            return "token lacks a required claim (exp, iat, sub, jti)";
        }
        return "token is invalid";
    }

    private synchronized Uni<Keys> refresh() {
        if (inflight == null) {
            inflight = source.fetch()
                    .map(this::parse)
                    .invoke(k -> keys = k)
                    .onFailure().invoke(e -> LOG.warnf("JWK set not read: %s", e.getMessage()))
                    .onFailure().transform(e -> new KeysUnavailableException("the token issuer's signing keys cannot be read", e))
                    .eventually(() -> {
                        synchronized (BearerVerifier.this) {
                            inflight = null;
                        }
                    })
                    .memoize().indefinitely();
        }
        return inflight;
    }

    Keys parse(String json) {
        try {
            JsonWebKeySet set = new JsonWebKeySet(json);
            List<JsonWebKey> usable = new ArrayList<>();
            List<String> kids = new ArrayList<>();
            for (JsonWebKey k : set.getJsonWebKeys()) {
                if (k instanceof PublicJsonWebKey p && "EC".equals(k.getKeyType()) && k.getKeyId() != null
                        && (k.getUse() == null || "sig".equals(k.getUse()))) {
                    // only the public half is ever used, whatever the document carried
                    usable.add(PublicJsonWebKey.Factory.newPublicJwk(p.getPublicKey()));
                    usable.get(usable.size() - 1).setKeyId(k.getKeyId());
                    usable.get(usable.size() - 1).setAlgorithm(ALGORITHM);
                    kids.add(k.getKeyId());
                }
            }
            JwtConsumer consumer = new JwtConsumerBuilder()
                    .setExpectedType(true, TYPE)
                    .setJwsAlgorithmConstraints(AlgorithmConstraints.ConstraintType.PERMIT, ALGORITHM)
                    .setVerificationKeyResolver(new JwksVerificationKeyResolver(usable))
                    .setRequireExpirationTime()
                    .setRequireIssuedAt()
                    .setRequireSubject()
                    .setRequireJwtId()
                    .setExpectedIssuer(true, config.oauth().issuer())
                    .setExpectedAudience(true, config.oauth().audience())
                    .setAllowedClockSkewInSeconds((int) config.oauth().clockSkew().toSeconds())
                    .setMaxFutureValidityInMinutes((int) MAX_LIFETIME.toMinutes())
                    .build();
            return new Keys(List.copyOf(kids), consumer, Instant.now());
        } catch (Exception e) {
            throw new IllegalStateException("JWK set unreadable: " + e.getClass().getSimpleName(), e);
        }
    }
}
