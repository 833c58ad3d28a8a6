package dev.agentpay.mandate.idempotency.service;

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.sql.Times;
import dev.agentpay.mandate.config.ApiJson;
import dev.agentpay.mandate.config.MandateConfig;
import dev.agentpay.mandate.idempotency.domain.ApiResult;
import dev.agentpay.mandate.idempotency.repository.IdempotencyRepository;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Runs a state-changing POST in one transaction and, when the request carries an {@code Idempotency-Key},
 * stores its successful answer in that same transaction: a repeat within the TTL gets the stored answer
 * (status and bytes) and changes nothing; the same key with a different request is a 409. Keys are
 * scoped per partner. Refusals are not stored, so a corrected retry may reuse the key.
 */
@ApplicationScoped
public class IdempotencyService {

    private static final Logger LOG = Logger.getLogger(IdempotencyService.class);

    /** How a body is written for its fingerprint: every non-ASCII character escaped, so unpaired surrogates stay distinct. */
    private static final ObjectWriter FINGERPRINT = ApiJson.MAPPER.writer().with(JsonWriteFeature.ESCAPE_NON_ASCII.mappedFeature());

    @Inject
    Pool pool;

    @Inject
    IdempotencyRepository repository;

    @Inject
    MandateConfig config;

    /** A request's key and fingerprint (method, path and the body as bound). */
    public record Key(String key, String fingerprint) {
    }

    /**
     * Checks the header value and fingerprints the request; {@code null} when no key was sent. The body is the
     * bound request record, fingerprinted as {@link ApiJson} writes it: every field the service acts on, in
     * declaration order, {@code terms} as sent; so a repeat of the same body matches whatever whitespace it
     * carries, and any change of a value does not.
     */
    public Key key(String headerValue, String method, String path, Object body) {
        if (headerValue == null) {
            return null;
        }
        if (headerValue.isEmpty() || headerValue.length() > config.idempotency().maxKeyLength()
                || !headerValue.chars().allMatch(c -> c >= 0x21 && c <= 0x7e)) {
            throw ApiException.invalidField("Idempotency-Key",
                    "must be 1 to " + config.idempotency().maxKeyLength() + " visible ASCII characters");
        }
        return new Key(headerValue, sha256Hex(method + " " + path + "\n" + ApiJson.write(FINGERPRINT, body)));
    }

    /** Runs {@code work} in a transaction, honouring {@code key} (may be {@code null}) within {@code scope}. */
    public Uni<ApiResult> run(String scope, Key key, Function<SqlConnection, Uni<ApiResult>> work) {
        if (key == null) {
            return pool.withTransaction(work).map(ApiResult::orThrow);
        }
        Instant now = Times.now();
        Instant notBefore = now.minus(config.idempotency().ttl());
        return repository.find(pool, scope, key.key(), notBefore)
                .flatMap(stored -> {
                    if (stored != null) {
                        return Uni.createFrom().item(replay(stored, key));
                    }
                    return pool.withTransaction(conn -> work.apply(conn).flatMap(result -> {
                                if (!result.storable()) {
                                    return Uni.createFrom().item(result);
                                }
                                return repository.store(conn, scope, key.key(), key.fingerprint(), result.status(),
                                                result.json(), now, notBefore)
                                        .map(fresh -> {
                                            if (!fresh) {
                                                throw new KeyTaken();
                                            }
                                            return result;
                                        });
                            }))
                            // a concurrent request with the same key committed first: answer as a repeat of it
                            .onFailure(KeyTaken.class).recoverWithUni(() -> repository.find(pool, scope, key.key(), notBefore)
                                    .map(again -> {
                                        if (again == null) {
                                            throw ApiException.conflict("idempotency_key_in_use",
                                                    "a request with this Idempotency-Key is in progress; retry");
                                        }
                                        return replay(again, key);
                                    }));
                })
                .map(ApiResult::orThrow);
    }

    private static ApiResult replay(IdempotencyRepository.Stored stored, Key key) {
        if (!stored.requestHash().equals(key.fingerprint())) {
            throw ApiException.conflict("idempotency_key_reused",
                    "this Idempotency-Key was already used with a different request");
        }
        return ApiResult.replay(stored.status(), stored.body());
    }

    @Scheduled(every = "1h", delayed = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> purge() {
        return repository.deleteOlderThan(pool, Times.now().minus(config.idempotency().ttl()))
                .invoke(n -> {
                    if (n > 0) {
                        LOG.infof("purged %d expired idempotency records", n);
                    }
                })
                .replaceWithVoid();
    }

    private static String sha256Hex(String s) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Another transaction stored an answer for the key first. */
    private static final class KeyTaken extends RuntimeException {
        KeyTaken() {
            super(null, null, false, false);
        }
    }
}
