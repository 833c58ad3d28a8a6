package dev.agentpay.mandate.oauth.service;

import dev.agentpay.commons.auth.ApiKeys;
import dev.agentpay.commons.auth.Scopes;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.events.PartnerEvent;
import dev.agentpay.commons.sql.Times;
import dev.agentpay.mandate.partner.domain.PartnerRecord;
import dev.agentpay.mandate.oauth.repository.OAuthRepository;
import dev.agentpay.mandate.oauth.repository.OAuthRepository.ClientRow;
import dev.agentpay.mandate.oauth.domain.KeyScopes;
import dev.agentpay.mandate.oauth.domain.OAuthClient;
import dev.agentpay.mandate.partner.repository.PartnerRepository;
import dev.agentpay.mandate.partner.service.PartnerService;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A partner's OAuth clients (issue, list, revoke) and its API key's scopes. Each change and the partner's
 * registry record that publishes it commit together, so every service learns a new client, a revocation or
 * a narrower key within seconds. Client secrets are shown once and stored as SHA-256 only.
 */
@ApplicationScoped
public class OAuthClientService {

    /** {@code cli_} and 32 lowercase hex digits. */
    public static final String CLIENT_ID_PATTERN = "^cli_[0-9a-f]{32}$";
    /** {@code cs_} and 64 lowercase hex digits (32 random bytes, as API keys). */
    public static final String SECRET_PATTERN = "^cs_[0-9a-f]{64}$";
    private static final Pattern CLIENT_ID = Pattern.compile(CLIENT_ID_PATTERN);
    private static final Pattern SECRET = Pattern.compile(SECRET_PATTERN);
    /** Active clients one partner may hold. */
    static final int MAX_CLIENTS = 20;

    @Inject
    Pool pool;

    @Inject
    PartnerRepository partners;

    @Inject
    PartnerService partnerService;

    @Inject
    OAuthRepository repo;

    public Uni<OAuthClient> create(String partnerId, String name, List<String> scopes) {
        List<String> ordered = List.copyOf(known(scopes, "scopes"));
        String clientId = "cli_" + ApiKeys.randomHex(16);
        String secret = "cs_" + ApiKeys.randomHex(32);
        Instant now = Times.now();
        ClientRow row = new ClientRow(clientId, partnerId, name, ApiKeys.hash(secret), ordered, PartnerEvent.ACTIVE, now, null);
        return change(partnerId, conn -> repo.clientsOf(conn, partnerId).flatMap(existing -> {
            if (existing.stream().filter(c -> PartnerEvent.ACTIVE.equals(c.status())).count() >= MAX_CLIENTS) {
                throw ApiException.conflict("too_many_clients", "a partner holds at most " + MAX_CLIENTS + " active OAuth clients");
            }
            return repo.insertClient(conn, row);
        })).map(v -> client(row, secret));
    }

    public Uni<List<OAuthClient>> list(String partnerId) {
        return partners.find(pool, partnerId).flatMap(p -> {
            if (p == null) {
                throw partnerNotFound();
            }
            return repo.clientsOf(pool, partnerId);
        }).map(rows -> rows.stream().map(r -> client(r, null)).toList());
    }

    /** Revokes the client: its tokens are refused everywhere once the registries apply the record. Repeat: no-op. */
    public Uni<OAuthClient> revoke(String partnerId, String clientId) {
        return pool.withTransaction(conn -> partners.lock(conn, partnerId).flatMap(p -> {
            if (p == null) {
                throw partnerNotFound();
            }
            return repo.findClient(conn, clientId).flatMap(c -> {
                if (c == null || !c.partnerId().equals(partnerId)) {
                    throw ApiException.notFound("client_not_found", "no such OAuth client for this partner");
                }
                if (!PartnerEvent.ACTIVE.equals(c.status())) {
                    return Uni.createFrom().item(client(c, null));
                }
                Instant now = Times.now();
                PartnerRecord touched = p.with(p.name(), p.status(), p.apiKeyHash(), p.signingSecret(), now);
                return repo.revokeClient(conn, clientId, now)
                        .flatMap(v -> partners.update(conn, touched))
                        .flatMap(v -> partnerService.publish(conn, touched))
                        .flatMap(v -> repo.findClient(conn, clientId)).map(r -> client(r, null));
            });
        }));
    }

    /** Restricts the API key to {@code scopes}, or (null) lets it use every scope again. */
    public Uni<KeyScopes> setKeyScopes(String partnerId, List<String> scopes) {
        List<String> ordered = scopes == null ? null : List.copyOf(known(scopes, "scopes"));
        return change(partnerId, conn -> repo.setKeyScopes(conn, partnerId, ordered))
                .map(v -> new KeyScopes(partnerId, ordered == null ? List.copyOf(Scopes.ALL.keySet()) : ordered, ordered == null));
    }

    public Uni<KeyScopes> keyScopes(String partnerId) {
        return partners.find(pool, partnerId).flatMap(p -> {
            if (p == null) {
                throw partnerNotFound();
            }
            return repo.keyScopes(pool, partnerId);
        }).map(s -> new KeyScopes(partnerId, s == null ? List.copyOf(Scopes.ALL.keySet()) : s, s == null));
    }

    /** The client if {@code secret} is its secret and it and its partner are active; {@code null} otherwise (no oracle: one answer). */
    public Uni<OAuthClient> authenticate(String clientId, String secret) {
        if (clientId == null || secret == null || !CLIENT_ID.matcher(clientId).matches() || !SECRET.matcher(secret).matches()) {
            return Uni.createFrom().nullItem();
        }
        String hash = ApiKeys.hash(secret);
        return repo.findClient(pool, clientId).flatMap(c -> {
            if (c == null || !PartnerEvent.ACTIVE.equals(c.status()) || !ApiKeys.constantTimeEquals(c.secretHash(), hash)) {
                return Uni.createFrom().nullItem();
            }
            return partners.find(pool, c.partnerId()).map(p -> p != null && PartnerEvent.ACTIVE.equals(p.status()) ? client(c, null) : null);
        });
    }

    /** Runs {@code edit} with the partner row-locked (active), touches it and publishes its registry record. */
    private Uni<Void> change(String partnerId, Function<SqlConnection, Uni<Void>> edit) {
        return pool.withTransaction(conn -> partners.lock(conn, partnerId).flatMap(p -> {
            if (p == null) {
                throw partnerNotFound();
            }
            if (!PartnerEvent.ACTIVE.equals(p.status())) {
                throw ApiException.conflict("partner_revoked", "partner " + partnerId + " is revoked");
            }
            PartnerRecord touched = p.with(p.name(), p.status(), p.apiKeyHash(), p.signingSecret(), Times.now());
            return edit.apply(conn).flatMap(v -> partners.update(conn, touched)).flatMap(v -> partnerService.publish(conn, touched));
        }));
    }

    private static java.util.Set<String> known(List<String> scopes, String field) {
        List<String> problems = new ArrayList<>();
        for (String s : scopes) {
            if (!Scopes.ALL.containsKey(s)) {
                problems.add(s);
            }
        }
        if (!problems.isEmpty()) {
            throw ApiException.badRequest("invalid_scope", field + ": unknown scope " + String.join(", ", problems)
                    + " (known: " + String.join(", ", Scopes.ALL.keySet()) + ")");
        }
        return Scopes.ordered(scopes);
    }

    private static ApiException partnerNotFound() {
        return ApiException.notFound("partner_not_found", "no such partner");
    }

    static OAuthClient client(ClientRow r, String secret) {
        return new OAuthClient(r.clientId(), r.partnerId(), r.name(), r.scopes(), r.status(), r.createdAt(), r.revokedAt(), secret);
    }
}
