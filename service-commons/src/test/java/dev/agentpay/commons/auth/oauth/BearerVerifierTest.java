package dev.agentpay.commons.auth.oauth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpay.commons.auth.AuthConfig;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jose4j.jwk.EcJwkGenerator;
import org.jose4j.jwk.EllipticCurveJsonWebKey;
import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.keys.EllipticCurves;
import org.junit.jupiter.api.Test;

/**
 * The verifier alone (no Quarkus): the JWK set is cached, fetched again for an unknown kid at most once per
 * min-refetch, the last good set is kept when a fetch fails, and a token refused on its header costs no fetch.
 */
class BearerVerifierTest {

    static final String ISS = "https://api.test";

    final AtomicInteger fetches = new AtomicInteger();
    final AtomicReference<String> published = new AtomicReference<>();
    final AtomicReference<RuntimeException> failure = new AtomicReference<>();

    BearerVerifier verifier(Duration minRefetch) {
        BearerVerifier v = new BearerVerifier();
        v.config = config(minRefetch);
        v.source = () -> {
            fetches.incrementAndGet();
            return failure.get() != null ? Uni.createFrom().failure(failure.get()) : Uni.createFrom().item(published.get());
        };
        return v;
    }

    static EllipticCurveJsonWebKey key(String kid) throws Exception {
        EllipticCurveJsonWebKey k = EcJwkGenerator.generateJwk(EllipticCurves.P256);
        k.setKeyId(kid);
        k.setUse("sig");
        return k;
    }

    static String jwks(EllipticCurveJsonWebKey... keys) {
        StringBuilder b = new StringBuilder("{\"keys\":[");
        for (int i = 0; i < keys.length; i++) {
            b.append(i == 0 ? "" : ",").append(keys[i].toJson(JsonWebKey.OutputControlLevel.PUBLIC_ONLY));
        }
        return b.append("]}").toString();
    }

    static String token(EllipticCurveJsonWebKey k, String scope) throws Exception {
        long now = Instant.now().getEpochSecond();
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload("{\"iss\":\"" + ISS + "\",\"aud\":\"" + ISS + "\",\"sub\":\"ptn_1\",\"client_id\":\"cli_1\",\"jti\":\"j-" + System.nanoTime()
                + "\",\"scope\":\"" + scope + "\",\"iat\":" + now + ",\"exp\":" + (now + 300) + "}");
        jws.setKey(k.getPrivateKey());
        jws.setKeyIdHeaderValue(k.getKeyId());
        jws.setHeader("typ", "at+jwt");
        jws.setAlgorithmHeaderValue("ES256");
        return jws.getCompactSerialization();
    }

    AccessToken verify(BearerVerifier v, String token) {
        return v.verify(token).await().atMost(Duration.ofSeconds(5));
    }

    @Test
    void aNewKidFetchesTheSetAgainAndAFloodOfUnknownKidsCostsOneFetch() throws Exception {
        EllipticCurveJsonWebKey a = key("a");
        EllipticCurveJsonWebKey b = key("b");
        published.set(jwks(a));
        BearerVerifier v = verifier(Duration.ofHours(1));
        AccessToken t = verify(v, token(a, "mandates:read invoices:read"));
        assertThat(t.partnerId()).isEqualTo("ptn_1");
        assertThat(t.clientId()).isEqualTo("cli_1");
        assertThat(t.scopes()).containsExactlyInAnyOrder("mandates:read", "invoices:read");
        verify(v, token(a, "mandates:read"));
        assertThat(fetches).hasValue(1);

        // rotation: b is published beside a; the first token signed by b fetches the set again
        published.set(jwks(b, a));
        verify(v, token(b, "mandates:read"));
        assertThat(fetches).hasValue(2);
        assertThat(v.knownKeyIds()).containsExactly("b", "a");

        // forged kids: the next refetch is an hour away, so they are refused without fetching
        for (int i = 0; i < 50; i++) {
            EllipticCurveJsonWebKey forged = key("forged-" + i);
            String tok = token(forged, "mandates:read");
            assertThatThrownBy(() -> verify(v, tok)).isInstanceOf(InvalidTokenException.class).hasMessageContaining("unknown key");
        }
        assertThat(fetches).hasValue(2);
    }

    @Test
    void aFailedFetchKeepsTheLastSetAndWithoutAnySetTheKeysAreUnavailable() throws Exception {
        EllipticCurveJsonWebKey a = key("a");
        failure.set(new IllegalStateException("issuer down"));
        BearerVerifier v = verifier(Duration.ZERO);
        String tok = token(a, "mandates:read");
        assertThatThrownBy(() -> verify(v, tok)).isInstanceOf(KeysUnavailableException.class);
        failure.set(null);
        published.set(jwks(a));
        verify(v, tok);
        failure.set(new IllegalStateException("issuer down again"));
        verify(v, tok);
        String unknown = token(key("c"), "mandates:read");
        assertThatThrownBy(() -> verify(v, unknown)).isInstanceOf(InvalidTokenException.class);
    }

    @Test
    void headerRefusalsCostNoFetchAndUnknownScopesAreRefused() throws Exception {
        EllipticCurveJsonWebKey a = key("a");
        published.set(jwks(a));
        BearerVerifier v = verifier(Duration.ZERO);
        String good = token(a, "mandates:read");
        String[] parts = good.split("\\.");
        String b64 = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"none\",\"kid\":\"a\",\"typ\":\"at+jwt\"}".getBytes());
        String hs = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"HS256\",\"kid\":\"a\",\"typ\":\"at+jwt\"}".getBytes());
        for (String bad : List.of(b64 + "." + parts[1] + ".", b64 + "." + parts[1] + ".x", hs + "." + parts[1] + "." + parts[2],
                "a.b", "", "x".repeat(5000))) {
            assertThatThrownBy(() -> verify(v, bad)).isInstanceOf(InvalidTokenException.class);
        }
        assertThat(fetches).hasValue(0);
        assertThatThrownBy(() -> verify(v, token(a, "mandates:read superuser"))).isInstanceOf(InvalidTokenException.class)
                .hasMessage("token names an unknown scope");
    }

    static AuthConfig config(Duration minRefetch) {
        AuthConfig.OAuth oauth = new AuthConfig.OAuth() {
            public String issuer() {
                return ISS;
            }

            public String audience() {
                return ISS;
            }

            public Optional<String> jwksUrl() {
                return Optional.empty();
            }

            public Duration jwksMaxAge() {
                return Duration.ofMinutes(5);
            }

            public Duration jwksMinRefetch() {
                return minRefetch;
            }

            public Duration clockSkew() {
                return Duration.ofSeconds(30);
            }
        };
        return new AuthConfig() {
            public Optional<String> adminKey() {
                return Optional.empty();
            }

            public boolean awaitRegistry() {
                return false;
            }

            public OAuth oauth() {
                return oauth;
            }
        };
    }
}
