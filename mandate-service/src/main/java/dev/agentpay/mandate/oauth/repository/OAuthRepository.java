package dev.agentpay.mandate.oauth.repository;

import static dev.agentpay.commons.sql.Times.db;
import static dev.agentpay.commons.sql.Times.instant;

import dev.agentpay.commons.sql.Rows;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * SQL for OAuth clients ({@code oauth_client}), the API key's scopes ({@code partner.api_key_scopes}) and the
 * access tokens' signing keys ({@code oauth_signing_key}); every method runs on the caller's connection.
 */
@ApplicationScoped
public class OAuthRepository {

    /** An OAuth client as stored: its secret only as SHA-256. */
    public record ClientRow(String clientId, String partnerId, String name, String secretHash, List<String> scopes,
            String status, Instant createdAt, Instant revokedAt) {
    }

    /** A signing key; {@code retiredAt} null: the key that signs. */
    public record KeyRow(String kid, String privateJwk, String publicJwk, Instant createdAt, Instant retiredAt,
            Instant publishUntil) {
    }

    private static final String CLIENT = "client_id, partner_id, name, secret_hash, scopes, status, created_at, revoked_at";
    private static final String KEY = "kid, private_jwk, public_jwk, created_at, retired_at, publish_until";

    public Uni<Void> insertClient(SqlClient sql, ClientRow c) {
        return sql.preparedQuery("insert into oauth_client (" + CLIENT + ") values ($1, $2, $3, $4, $5, $6, $7, $8)")
                .execute(Tuple.from(Arrays.asList(c.clientId(), c.partnerId(), c.name(), c.secretHash(),
                        c.scopes().toArray(String[]::new), c.status(), db(c.createdAt()),
                        c.revokedAt() == null ? null : db(c.revokedAt()))))
                .replaceWithVoid();
    }

    public Uni<ClientRow> findClient(SqlClient sql, String clientId) {
        return sql.preparedQuery("select " + CLIENT + " from oauth_client where client_id = $1")
                .execute(Tuple.of(clientId)).map(rs -> Rows.firstOrNull(rs, OAuthRepository::client));
    }

    public Uni<List<ClientRow>> clientsOf(SqlClient sql, String partnerId) {
        return sql.preparedQuery("select " + CLIENT + " from oauth_client where partner_id = $1 order by created_at, client_id")
                .execute(Tuple.of(partnerId)).map(rs -> Rows.list(rs, OAuthRepository::client));
    }

    public Uni<Void> revokeClient(SqlClient sql, String clientId, Instant at) {
        return sql.preparedQuery("update oauth_client set status = 'revoked', revoked_at = $2 where client_id = $1 and status = 'active'")
                .execute(Tuple.of(clientId, db(at))).replaceWithVoid();
    }

    /** The API key's scopes, or {@code null} for every scope. */
    public Uni<List<String>> keyScopes(SqlClient sql, String partnerId) {
        return sql.preparedQuery("select api_key_scopes from partner where id = $1").execute(Tuple.of(partnerId))
                .map(rs -> Rows.firstOrNull(rs, r -> {
                    String[] a = r.getArrayOfStrings("api_key_scopes");
                    return a == null ? null : List.of(a);
                }));
    }

    public Uni<Void> setKeyScopes(SqlClient sql, String partnerId, List<String> scopes) {
        return sql.preparedQuery("update partner set api_key_scopes = $2 where id = $1")
                .execute(Tuple.from(Arrays.asList(partnerId, scopes == null ? null : scopes.toArray(String[]::new))))
                .replaceWithVoid();
    }

    /** Serializes key rotations and the creation of the first key across instances (this transaction). */
    public Uni<Void> lockKeys(SqlClient sql) {
        return sql.query("select pg_advisory_xact_lock(hashtext('oauth_signing_key'))").execute().replaceWithVoid();
    }

    /** The keys to publish (and the one that signs) at {@code now}, newest first. */
    public Uni<List<KeyRow>> publishedKeys(SqlClient sql, Instant now) {
        return sql.preparedQuery("select " + KEY + " from oauth_signing_key where publish_until is null or publish_until > $1"
                        + " order by created_at desc, kid")
                .execute(Tuple.of(db(now))).map(rs -> Rows.list(rs, OAuthRepository::key));
    }

    public Uni<Void> insertKey(SqlClient sql, KeyRow k) {
        return sql.preparedQuery("insert into oauth_signing_key (" + KEY + ") values ($1, $2, $3, $4, $5, $6)")
                .execute(Tuple.from(Arrays.asList(k.kid(), k.privateJwk(), k.publicJwk(), db(k.createdAt()), null, null)))
                .replaceWithVoid();
    }

    public Uni<Void> retireKey(SqlClient sql, String kid, Instant at, Instant publishUntil) {
        return sql.preparedQuery("update oauth_signing_key set retired_at = $2, publish_until = $3 where kid = $1 and retired_at is null")
                .execute(Tuple.of(kid, db(at), db(publishUntil))).replaceWithVoid();
    }

    private static ClientRow client(Row r) {
        String[] scopes = r.getArrayOfStrings("scopes");
        return new ClientRow(r.getString("client_id"), r.getString("partner_id"), r.getString("name"),
                r.getString("secret_hash"), scopes == null ? List.of() : List.of(scopes), r.getString("status"),
                instant(r, "created_at"), r.getValue("revoked_at") == null ? null : instant(r, "revoked_at"));
    }

    private static KeyRow key(Row r) {
        return new KeyRow(r.getString("kid"), r.getString("private_jwk"), r.getString("public_jwk"), instant(r, "created_at"),
                r.getValue("retired_at") == null ? null : instant(r, "retired_at"),
                r.getValue("publish_until") == null ? null : instant(r, "publish_until"));
    }
}
