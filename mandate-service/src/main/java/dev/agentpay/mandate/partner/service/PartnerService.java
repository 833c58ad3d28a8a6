package dev.agentpay.mandate.partner.service;

import dev.agentpay.commons.auth.ApiKeys;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.PartnerEvent;
import dev.agentpay.commons.outbox.Outbox;
import dev.agentpay.mandate.partner.domain.PartnerRecord;
import dev.agentpay.mandate.partner.domain.PartnerView;
import dev.agentpay.mandate.partner.repository.PartnerRepository;
import dev.agentpay.commons.sql.Times;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.BiFunction;
import dev.agentpay.mandate.config.ApiJson;
import dev.agentpay.mandate.idempotency.domain.ApiResult;

/**
 * Partner administration: issue, import, rotate and revoke. Each change and the {@link PartnerEvent}
 * that publishes it to every service's registry (compacted {@code partners} topic) commit together.
 * A rotation invalidates the old key or secret at once: there is no overlap window.
 */
@ApplicationScoped
public class PartnerService {

    public static final String ACTIVE = PartnerEvent.ACTIVE;
    public static final String REVOKED = PartnerEvent.REVOKED;

    @Inject
    Pool pool;

    @Inject
    PartnerRepository partners;

    @Inject
    Outbox outbox;

    @Inject
    dev.agentpay.mandate.oauth.service.RegistryRecord registryRecord;

    /** Issues a new partner with a fresh API key and signing secret, shown in this answer only. */
    public Uni<ApiResult> create(String name) {
        String id = "ptn_" + UUID.randomUUID();
        String apiKey = ApiKeys.generate();
        String secret = newSigningSecret();
        Instant now = Times.now();
        PartnerRecord p = new PartnerRecord(id, name, ACTIVE, ApiKeys.hash(apiKey), secret, now, now);
        return pool.withTransaction(conn -> partners.insert(conn, p)
                .flatMap(v -> publish(conn, p))
                .replaceWith(ApiResult.of(201, view(p, apiKey, secret))));
    }

    /**
     * Creates or updates a partner with a known id, key and secret (bootstrapping by the launcher, migration
     * from another store). Repeating the same import changes nothing and publishes nothing.
     */
    public Uni<ApiResult> importPartner(String id, String name, String apiKey, String signingSecret, String status) {
        return importPartnerByHash(id, name, ApiKeys.hash(apiKey), signingSecret, status);
    }

    /**
     * As {@link #importPartner}, with the key given only as its hash ({@link ApiKeys#hash}): the form a
     * bootstrap file uses, so the raw key need not be stored with the operator's configuration.
     */
    public Uni<ApiResult> importPartnerByHash(String id, String name, String keyHash, String signingSecret, String status) {
        return pool.withTransaction(conn -> partners.ownerOfKey(conn, keyHash)
                .flatMap(owner -> {
                    if (owner != null && !owner.equals(id)) {
                        throw ApiException.conflict("api_key_in_use", "api_key belongs to another partner");
                    }
                    return partners.lock(conn, id);
                })
                .flatMap(existing -> {
                    Instant now = Times.now();
                    if (existing == null) {
                        PartnerRecord p = new PartnerRecord(id, name, status, keyHash, signingSecret, now, now);
                        return partners.insert(conn, p).flatMap(v -> publish(conn, p))
                                .replaceWith(ApiResult.of(201, view(p, null, null)));
                    }
                    boolean same = existing.name().equals(name) && existing.status().equals(status)
                            && existing.apiKeyHash().equals(keyHash)
                            && ApiKeys.constantTimeEquals(existing.signingSecret(), signingSecret);
                    if (same) {
                        return Uni.createFrom().item(ApiResult.of(200, view(existing, null, null)));
                    }
                    PartnerRecord p = existing.with(name, status, keyHash, signingSecret, now);
                    return partners.update(conn, p).flatMap(v -> publish(conn, p))
                            .replaceWith(ApiResult.of(200, view(p, null, null)));
                }));
    }

    /** Replaces the partner's API key; the old key stops working as soon as the registries apply the event. */
    public Uni<ApiResult> rotateKey(String id) {
        String apiKey = ApiKeys.generate();
        return change(id, true, (p, now) -> p.with(p.name(), p.status(), ApiKeys.hash(apiKey), p.signingSecret(), now),
                p -> view(p, apiKey, null));
    }

    /** Replaces the partner's signing secret; signatures made with the old one are refused from now on. */
    public Uni<ApiResult> rotateSigningSecret(String id) {
        String secret = newSigningSecret();
        return change(id, true, (p, now) -> p.with(p.name(), p.status(), p.apiKeyHash(), secret, now),
                p -> view(p, null, secret));
    }

    /** Revokes the partner: its key stops working everywhere. Revoking again is a no-op. */
    public Uni<ApiResult> revoke(String id) {
        return change(id, false, (p, now) -> REVOKED.equals(p.status()) ? p
                : p.with(p.name(), REVOKED, p.apiKeyHash(), p.signingSecret(), now), p -> view(p, null, null));
    }

    public Uni<List<PartnerView>> list() {
        return partners.list(pool).map(all -> all.stream().map(p -> view(p, null, null)).toList());
    }

    public Uni<PartnerView> get(String id) {
        return partners.find(pool, id).map(p -> {
            if (p == null) {
                throw notFound();
            }
            return view(p, null, null);
        });
    }

    /** The partner's current signing secret, or {@code null} when it is unknown or revoked. */
    public Uni<String> signingSecret(SqlConnection conn, String partnerId) {
        return partners.find(conn, partnerId).map(p -> p == null || !ACTIVE.equals(p.status()) ? null : p.signingSecret());
    }

    private Uni<ApiResult> change(String id, boolean mustBeActive, BiFunction<PartnerRecord, Instant, PartnerRecord> edit,
            java.util.function.Function<PartnerRecord, PartnerView> answer) {
        return pool.withTransaction(conn -> partners.lock(conn, id).flatMap(existing -> {
            if (existing == null) {
                throw notFound();
            }
            if (mustBeActive && !ACTIVE.equals(existing.status())) {
                throw ApiException.conflict("partner_revoked", "partner " + id + " is revoked");
            }
            PartnerRecord changed = edit.apply(existing, Times.now());
            if (Objects.equals(changed, existing)) {
                return Uni.createFrom().item(ApiResult.of(200, answer.apply(existing)));
            }
            return partners.update(conn, changed).flatMap(v -> publish(conn, changed))
                    .replaceWith(ApiResult.of(200, answer.apply(changed)));
        }));
    }

    /** The partner's registry record (key, key scopes, OAuth clients), in this transaction. */
    public Uni<Void> publish(SqlConnection conn, PartnerRecord p) {
        return registryRecord.publish(conn, p);
    }

    private static ApiException notFound() {
        return ApiException.notFound("partner_not_found", "no such partner");
    }

    /** 32 random bytes as lowercase hex: the HMAC key partners use as a UTF-8 string. */
    private static String newSigningSecret() {
        return ApiKeys.randomHex(32);
    }

    static PartnerView view(PartnerRecord p, String apiKey, String signingSecret) {
        return new PartnerView(p.id(), p.name(), p.status(), ApiJson.time(p.createdAt()), ApiJson.time(p.updatedAt()),
                apiKey, signingSecret);
    }
}
