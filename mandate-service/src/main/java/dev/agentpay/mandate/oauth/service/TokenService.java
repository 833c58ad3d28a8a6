package dev.agentpay.mandate.oauth.service;

import dev.agentpay.commons.auth.AuthConfig;
import dev.agentpay.commons.auth.Scopes;
import dev.agentpay.commons.auth.oauth.BearerVerifier;
import dev.agentpay.commons.sql.Times;
import dev.agentpay.mandate.oauth.domain.AccessToken;
import io.quarkus.runtime.Startup;
import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Set;
import java.util.UUID;

/**
 * Issues access tokens (RFC 9068 JWTs, signed ES256 with {@link SigningKeys}' current key by SmallRye JWT's
 * build API): {@code iss} and {@code aud} the platform's, {@code sub} the partner, {@code client_id},
 * {@code scope}, {@code jti}, {@code iat}, {@code exp} = {@code iat} + {@code oauth-issuer.token-lifetime}
 * (at most 15 minutes).
 */
@Startup
@ApplicationScoped
public class TokenService {

    @Inject
    AuthConfig auth;

    @Inject
    OAuthIssuerConfig config;

    @Inject
    SigningKeys keys;

    @PostConstruct
    void check() {
        if (config.tokenLifetime().compareTo(BearerVerifier.MAX_LIFETIME) > 0 || config.tokenLifetime().isNegative()
                || config.tokenLifetime().isZero()) {
            throw new IllegalStateException("oauth-issuer.token-lifetime must be positive and at most "
                    + BearerVerifier.MAX_LIFETIME.toMinutes() + " minutes");
        }
    }

    public Uni<AccessToken> issue(String partnerId, String clientId, Set<String> scopes) {
        return keys.signer().map(signer -> {
            Instant now = Times.now();
            Instant exp = now.plus(config.tokenLifetime());
            String scope = Scopes.format(scopes);
            String token = Jwt.issuer(auth.oauth().issuer())
                    .subject(partnerId)
                    .audience(auth.oauth().audience())
                    .issuedAt(now)
                    .expiresAt(exp)
                    .claim("jti", UUID.randomUUID().toString())
                    .claim("client_id", clientId)
                    .claim("scope", scope)
                    .jws().keyId(signer.kid()).type(BearerVerifier.TYPE).algorithm(SignatureAlgorithm.ES256)
                    .sign(signer.key());
            return new AccessToken(token, "Bearer", config.tokenLifetime().toSeconds(), scope);
        });
    }
}
