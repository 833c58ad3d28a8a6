package dev.agentpay.mandate.oauth.service;

import dev.agentpay.commons.auth.oauth.BearerVerifier;
import dev.agentpay.commons.auth.oauth.JwksSource;
import dev.agentpay.commons.sql.Times;
import dev.agentpay.mandate.oauth.repository.OAuthRepository;
import dev.agentpay.mandate.oauth.repository.OAuthRepository.KeyRow;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.security.PrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.jboss.logging.Logger;
import org.jose4j.jwk.EcJwkGenerator;
import org.jose4j.jwk.EllipticCurveJsonWebKey;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.PublicJsonWebKey;
import org.jose4j.keys.EllipticCurves;
import org.jose4j.lang.JoseException;

/**
 * The access tokens' signing keys (ES256, P-256), kept in this service's database. One key signs; a rotation
 * retires it (it stays in the JWK set until the last token it signed has expired: {@link BearerVerifier#MAX_LIFETIME}
 * plus the clock skew) and creates the next, so verifiers see two keys during the overlap and fetch the set
 * again when a token names a {@code kid} they do not know. Rotations and the first key are serialized across
 * instances by an advisory lock; each instance re-reads the keys every {@link #RELOAD} (and at once after its own
 * rotation). Also this service's own {@link JwksSource}: mandate-service verifies bearer tokens against these
 * keys in-process.
 */
@ApplicationScoped
public class SigningKeys implements JwksSource {

    private static final Logger LOG = Logger.getLogger(SigningKeys.class);
    static final Duration RELOAD = Duration.ofSeconds(30);
    /** How long a retired key stays published: the longest token lifetime and a margin for clock skew. */
    static final Duration OVERLAP = BearerVerifier.MAX_LIFETIME.plus(Duration.ofMinutes(2));

    @Inject
    Pool pool;

    @Inject
    OAuthRepository repo;

    @Inject
    OAuthIssuerConfig config;

    /** The signing key in use: its id and private key. */
    public record Signer(String kid, PrivateKey key) {
    }

    private record Loaded(List<KeyRow> keys, Signer signer, Instant at) {
    }

    private volatile Loaded loaded;

    /** The key that signs now (the first is created on first use). */
    public Uni<Signer> signer() {
        Loaded l = loaded;
        if (l != null && l.signer() != null && l.at().plus(RELOAD).isAfter(Instant.now())) {
            return Uni.createFrom().item(l.signer());
        }
        return load().flatMap(k -> k.signer() != null ? Uni.createFrom().item(k.signer())
                : pool.withTransaction(conn -> repo.lockKeys(conn)
                        .flatMap(v -> repo.publishedKeys(conn, Times.now()))
                        .flatMap(keys -> keys.stream().anyMatch(r -> r.retiredAt() == null) ? Uni.createFrom().voidItem()
                                : repo.insertKey(conn, newKey(Times.now()))))
                        .flatMap(v -> load()).map(Loaded::signer));
    }

    /** The published keys as a JWK set (public parts only). */
    public Uni<JsonObject> jwks() {
        Loaded l = loaded;
        Uni<Loaded> keys = l != null && l.at().plus(RELOAD).isAfter(Instant.now()) ? Uni.createFrom().item(l) : load();
        return keys.map(k -> {
            JsonArray arr = new JsonArray();
            k.keys().forEach(r -> arr.add(new JsonObject(r.publicJwk())));
            return new JsonObject().put("keys", arr);
        });
    }

    @Override
    public Uni<String> fetch() {
        // the verifier asks again only for an unknown kid: read the database, not the cached view
        return load().flatMap(v -> jwks()).map(JsonObject::encode);
    }

    /** What a rotation did. */
    public record Rotation(String kid, String previousKid, Instant previousPublishedUntil) {
    }

    /** Retires the signing key (published until its tokens expire) and makes a new one the signer. */
    public Uni<Rotation> rotate() {
        Instant now = Times.now();
        KeyRow next = newKey(now);
        return pool.withTransaction(conn -> repo.lockKeys(conn)
                .flatMap(v -> repo.publishedKeys(conn, now))
                .flatMap(keys -> {
                    KeyRow current = keys.stream().filter(r -> r.retiredAt() == null).findFirst().orElse(null);
                    Instant until = now.plus(OVERLAP);
                    Uni<Void> retire = current == null ? Uni.createFrom().voidItem() : repo.retireKey(conn, current.kid(), now, until);
                    return retire.flatMap(v -> repo.insertKey(conn, next))
                            .replaceWith(new Rotation(next.kid(), current == null ? null : current.kid(), current == null ? null : until));
                }))
                .call(r -> load())
                .invoke(r -> LOG.infof("OAuth signing key rotated: %s signs, %s published until %s", r.kid(), r.previousKid(),
                        r.previousPublishedUntil()));
    }

    /** Replaces a signing key older than {@code oauth-issuer.key-rotation-period}. */
    @Scheduled(every = "1h", delayed = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> rotateWhenDue() {
        return load().flatMap(l -> {
            KeyRow current = l.keys().stream().filter(r -> r.retiredAt() == null).findFirst().orElse(null);
            if (current == null || current.createdAt().plus(config.keyRotationPeriod()).isAfter(Times.now())) {
                return Uni.createFrom().voidItem();
            }
            return rotate().replaceWithVoid();
        }).onFailure().invoke(e -> LOG.warnf("scheduled key rotation failed: %s", e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }

    private Uni<Loaded> load() {
        return repo.publishedKeys(pool, Times.now()).map(keys -> {
            Signer signer = keys.stream().filter(r -> r.retiredAt() == null).findFirst().map(SigningKeys::signerOf).orElse(null);
            Loaded l = new Loaded(keys, signer, Instant.now());
            loaded = l;
            return l;
        });
    }

    private static Signer signerOf(KeyRow r) {
        try {
            return new Signer(r.kid(), PublicJsonWebKey.Factory.newPublicJwk(r.privateJwk()).getPrivateKey());
        } catch (JoseException e) {
            throw new IllegalStateException("signing key " + r.kid() + " unreadable", e);
        }
    }

    static KeyRow newKey(Instant now) {
        try {
            EllipticCurveJsonWebKey jwk = EcJwkGenerator.generateJwk(EllipticCurves.P256);
            String kid = "es256-" + now.getEpochSecond() + "-" + dev.agentpay.commons.auth.ApiKeys.randomHex(4);
            jwk.setKeyId(kid);
            jwk.setUse("sig");
            jwk.setAlgorithm(BearerVerifier.ALGORITHM);
            return new KeyRow(kid, jwk.toJson(JsonWebKey.OutputControlLevel.INCLUDE_PRIVATE),
                    jwk.toJson(JsonWebKey.OutputControlLevel.PUBLIC_ONLY), now, null, null);
        } catch (JoseException e) {
            throw new IllegalStateException(e);
        }
    }
}
