package dev.agentpay.commons.auth.oauth;

import io.smallrye.mutiny.Uni;

/**
 * Where {@link BearerVerifier} reads the issuer's signing keys: a JWK set (RFC 7517) as JSON. Every service
 * uses {@link HttpJwksSource} (the issuer's {@code /.well-known/jwks.json}); mandate-service, the issuer,
 * replaces it with its own keys read in-process.
 */
public interface JwksSource {

    /** The current JWK set document; fails when it cannot be read. */
    Uni<String> fetch();
}
