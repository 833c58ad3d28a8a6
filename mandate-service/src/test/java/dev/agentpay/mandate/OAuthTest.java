package dev.agentpay.mandate;

import static dev.agentpay.mandate.support.Api.admin;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.lessThanOrEqualTo;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.hasKey;

import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.oauth.service.SigningKeys;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.Api.TestPartner;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.smallrye.jwt.algorithm.SignatureAlgorithm;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * OAuth 2.0 client credentials beside API keys: clients through the admin API, {@code POST /oauth/token} (both
 * client authentications, scope subsets, every refusal), bearer tokens on the mandate API with scopes enforced,
 * forged and foreign tokens refused, revocation, key rotation with two published keys, scoped API keys, the
 * token endpoint's per-client rate limit and the metadata documents. The registry is fed over the real Kafka topic.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class OAuthTest {

    static final String ISSUER = "http://127.0.0.1:8080";

    @Inject
    SigningKeys keys;

    record Client(String partnerId, String clientId, String secret) {
    }

    static Client newClient(TestPartner p, String... scopes) {
        var r = admin().contentType(ContentType.JSON).body(Map.of("name", "agent", "scopes", List.of(scopes)))
                .post("/admin/partners/" + p.id() + "/oauth-clients").then().statusCode(201)
                .body("data.client_id", matchesPattern("cli_[0-9a-f]{32}"))
                .body("data.client_secret", matchesPattern("cs_[0-9a-f]{64}"))
                .body("data.partner_id", equalTo(p.id()))
                .body("data.status", equalTo("active"))
                .extract();
        return new Client(p.id(), r.path("data.client_id"), r.path("data.client_secret"));
    }

    static Response tokenBasic(Client c, String scope) {
        var spec = given().auth().preemptive().basic(c.clientId(), c.secret()).contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials");
        if (scope != null) {
            spec = spec.formParam("scope", scope);
        }
        return spec.post("/oauth/token");
    }

    static String token(Client c, String scope) {
        return tokenBasic(c, scope).then().statusCode(200).extract().path("access_token");
    }

    static Response withToken(String token, String method, String path, Object body) {
        var spec = given().header("Authorization", "Bearer " + token);
        if (body != null) {
            spec = spec.contentType(ContentType.JSON).body(body);
        }
        return spec.request(method, path);
    }

    /** Waits until the registry knows the client (its tokens pass to the resource: 404 for an unknown mandate). */
    static void awaitAccepted(String token, boolean accepted) {
        await("token " + (accepted ? "accepted" : "refused")).atMost(Duration.ofSeconds(30)).until(() -> {
            int status = withToken(token, "GET", "/v1/mandates/mnd_probe", null).statusCode();
            return accepted ? status == 404 : status == 401;
        });
    }

    @Test
    void aClientGetsATokenAndItsScopesAreEnforced() {
        TestPartner p = Api.newPartner("OAuth partner");
        Client c = newClient(p, "mandates:read", "mandates:write");
        var answer = tokenBasic(c, null).then().statusCode(200)
                .header("Cache-Control", "no-store")
                .body("token_type", equalTo("Bearer"))
                .body("expires_in", lessThanOrEqualTo(900))
                .body("scope", equalTo("mandates:read mandates:write"))
                .extract();
        String token = answer.path("access_token");
        assertThat(token.split("\\.")).hasSize(3);
        Map<?, ?> claims = claims(token);
        assertThat(claims.get("iss")).isEqualTo(ISSUER);
        assertThat(claims.get("sub")).isEqualTo(p.id());
        assertThat(claims.get("client_id")).isEqualTo(c.clientId());
        assertThat(claims.get("jti")).isNotNull();
        assertThat(((Number) claims.get("exp")).longValue() - ((Number) claims.get("iat")).longValue()).isLessThanOrEqualTo(900);
        awaitAccepted(token, true);

        String id = withToken(token, "POST", "/v1/mandates", Api.createBody("a-" + UUID.randomUUID(), "b", Api.inDays(3)))
                .then().statusCode(201).extract().path("data.mandate_id");
        withToken(token, "GET", "/v1/mandates/" + id, null).then().statusCode(200).body(containsString(id));
        // the same partner's API key sees what the token created
        p.as().get("/v1/mandates/" + id).then().statusCode(200);
        // mandates:sign is not among the token's scopes
        withToken(token, "POST", "/v1/mandates/" + id + "/sign", Map.of("signer", "proposer", "signature", "00"))
                .then().statusCode(403)
                .header("WWW-Authenticate", containsString("error=\"insufficient_scope\""))
                .header("WWW-Authenticate", containsString("scope=\"mandates:sign\""))
                .body("success", equalTo(false)).body("error.code", equalTo("insufficient_scope"));
    }

    @Test
    void clientSecretPostWithAScopeSubset() {
        TestPartner p = Api.newPartner("Post partner");
        Client c = newClient(p, "mandates:read", "mandates:write", "disputes:write");
        String token = given().contentType(ContentType.URLENC).formParam("grant_type", "client_credentials")
                .formParam("client_id", c.clientId()).formParam("client_secret", c.secret())
                .formParam("scope", "mandates:read").formParam("resource", ISSUER + "/disco/mcp")
                .post("/oauth/token").then().statusCode(200).body("scope", equalTo("mandates:read"))
                .extract().path("access_token");
        awaitAccepted(token, true);
        withToken(token, "POST", "/v1/mandates", Api.createBody("a", "b", Api.inDays(3))).then().statusCode(403)
                .body("error.code", equalTo("insufficient_scope"));
    }

    @Test
    void theTokenEndpointRefusesBadRequestsWithRfc6749Errors() {
        TestPartner p = Api.newPartner("Refusals");
        Client c = newClient(p, "mandates:read");
        // wrong secret, unknown client, malformed Basic, none at all
        given().auth().preemptive().basic(c.clientId(), "cs_" + "0".repeat(64)).contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials").post("/oauth/token").then().statusCode(401)
                .header("WWW-Authenticate", containsString("Basic"))
                .body("success", equalTo(false)).body("error", equalTo("invalid_client"));
        given().auth().preemptive().basic("cli_" + "0".repeat(32), c.secret()).contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials").post("/oauth/token").then().statusCode(401)
                .body("error", equalTo("invalid_client"));
        given().header("Authorization", "Basic !!!").contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials").post("/oauth/token").then().statusCode(401)
                .body("error", equalTo("invalid_client"));
        given().contentType(ContentType.URLENC).formParam("grant_type", "client_credentials").post("/oauth/token")
                .then().statusCode(401).body("error", equalTo("invalid_client"));
        // both client authentications
        given().auth().preemptive().basic(c.clientId(), c.secret()).contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials").formParam("client_secret", c.secret())
                .post("/oauth/token").then().statusCode(400).body("error", equalTo("invalid_request"));
        // grant types
        given().auth().preemptive().basic(c.clientId(), c.secret()).contentType(ContentType.URLENC)
                .formParam("grant_type", "password").post("/oauth/token").then().statusCode(400)
                .body("error", equalTo("unsupported_grant_type"));
        given().auth().preemptive().basic(c.clientId(), c.secret()).contentType(ContentType.URLENC)
                .formParam("scope", "mandates:read").post("/oauth/token").then().statusCode(400)
                .body("error", equalTo("invalid_request"));
        // unknown scope, a scope beyond the client's, a repeated parameter, a foreign resource
        tokenBasic(c, "mandates:read admin:everything").then().statusCode(400).body("error", equalTo("invalid_scope"));
        Client d = newClient(p, "mandates:read");
        tokenBasic(d, "mandates:write").then().statusCode(400).body("error", equalTo("invalid_scope"))
                .body("error_description", containsString("mandates:read"));
        given().auth().preemptive().basic(d.clientId(), d.secret()).contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials").formParam("scope", "mandates:read")
                .formParam("scope", "mandates:read").post("/oauth/token").then().statusCode(400)
                .body("error", equalTo("invalid_request"));
        given().auth().preemptive().basic(d.clientId(), d.secret()).contentType(ContentType.URLENC)
                .formParam("grant_type", "client_credentials").formParam("resource", "https://evil.example")
                .post("/oauth/token").then().statusCode(400).body("error", equalTo("invalid_target"));
        // JSON instead of the form
        given().auth().preemptive().basic(d.clientId(), d.secret()).contentType(ContentType.JSON)
                .body(Map.of("grant_type", "client_credentials")).post("/oauth/token").then().statusCode(415)
                .body("success", equalTo(false));
        // creating a client with an unknown scope
        admin().contentType(ContentType.JSON).body(Map.of("name", "x", "scopes", List.of("charges:everything")))
                .post("/admin/partners/" + p.id() + "/oauth-clients").then().statusCode(400)
                .body("error.code", equalTo("invalid_scope"));
        admin().contentType(ContentType.JSON).body(Map.of("name", "x", "scopes", List.of("mandates:read")))
                .post("/admin/partners/ptn_nobody/oauth-clients").then().statusCode(404)
                .body("error.code", equalTo("partner_not_found"));
    }

    @Test
    void forgedForeignAndExpiredTokensAreRefusedWithInvalidToken() throws Exception {
        TestPartner p = Api.newPartner("Forgery target");
        Client c = newClient(p, "mandates:read", "mandates:write");
        String good = token(c, null);
        awaitAccepted(good, true);
        SigningKeys.Signer signer = keys.signer().await().atMost(Duration.ofSeconds(10));
        Instant now = Instant.now();

        // each forgery differs from a good token in one respect, signed with the real key where the respect allows
        Map<String, String> forged = new java.util.LinkedHashMap<>();
        forged.put("foreign issuer", sign(claims(p, c, now).issuer("https://evil.example"), signer));
        forged.put("another audience", sign(claims(p, c, now).audience("https://other.example"), signer));
        forged.put("expired", sign(claims(p, c, now.minusSeconds(3600)).expiresAt(now.minusSeconds(120)), signer));
        forged.put("too long lived", sign(claims(p, c, now).expiresAt(now.plus(Duration.ofHours(2))), signer));
        forged.put("unknown scope", sign(claims(p, c, now).claim("scope", "mandates:read root:all"), signer));
        forged.put("no jti", raw("{\"iss\":\"" + ISSUER + "\",\"aud\":\"" + ISSUER + "\",\"sub\":\"" + p.id()
                + "\",\"client_id\":\"" + c.clientId() + "\",\"scope\":\"mandates:read\",\"iat\":" + now.getEpochSecond()
                + ",\"exp\":" + (now.getEpochSecond() + 300) + "}", signer));
        forged.put("not typed at+jwt", claims(p, c, now).jws().keyId(signer.kid()).algorithm(SignatureAlgorithm.ES256).sign(signer.key()));
        forged.put("unknown kid", claims(p, c, now).jws().keyId("es256-nope").type("at+jwt").algorithm(SignatureAlgorithm.ES256).sign(signer.key()));
        forged.put("foreign key", claims(p, c, now).jws().keyId(signer.kid()).type("at+jwt").algorithm(SignatureAlgorithm.ES256)
                .sign(init(java.security.KeyPairGenerator.getInstance("EC")).generateKeyPair().getPrivate()));
        String[] parts = good.split("\\.");
        forged.put("alg none", b64("{\"alg\":\"none\",\"typ\":\"at+jwt\",\"kid\":\"" + signer.kid() + "\"}") + "." + parts[1] + ".");
        String hsHeader = b64("{\"alg\":\"HS256\",\"typ\":\"at+jwt\",\"kid\":\"" + signer.kid() + "\"}");
        String jwks = given().get("/.well-known/jwks.json").asString();
        forged.put("HS256 keyed with the public JWK set", hsHeader + "." + parts[1] + "." + hmac(hsHeader + "." + parts[1], jwks));
        forged.put("tampered payload", parts[0] + "." + b64("{\"sub\":\"" + p.id() + "\",\"scope\":\"mandates:read mandates:write webhooks:manage\"}") + "." + parts[2]);
        forged.put("malformed", "not.a-jwt");
        forged.put("garbage", "x".repeat(50));

        forged.forEach((what, token) -> {
            var r = withToken(token, "GET", "/v1/mandates/mnd_probe", null);
            assertThat(r.statusCode()).as(what).isEqualTo(401);
            assertThat(r.jsonPath().getString("error.code")).as(what).isEqualTo("invalid_token");
            assertThat(r.header("WWW-Authenticate")).as(what).contains("error=\"invalid_token\"");
            assertThat(r.asString()).as(what).doesNotContain(token.length() > 20 ? token.substring(0, 20) : "\u0000");
        });
        // the good token still passes, and a token beside an API key is refused as ambiguous
        withToken(good, "GET", "/v1/mandates/mnd_probe", null).then().statusCode(404);
        given().header("Authorization", "Bearer " + good).header("x-api-key", p.apiKey()).get("/v1/mandates/mnd_probe")
                .then().statusCode(400).body("error.code", equalTo("invalid_request"));
        given().header("Authorization", "Basic abc").get("/v1/mandates/mnd_probe").then().statusCode(401)
                .body("error.code", equalTo("invalid_token"));
        given().get("/v1/mandates/mnd_probe").then().statusCode(401).header("WWW-Authenticate", containsString("Bearer"))
                .body("error.code", equalTo("unauthorized"));
    }

    @Test
    void revokingTheClientOrThePartnerRefusesItsTokens() {
        TestPartner p = Api.newPartner("Revocable");
        Client c = newClient(p, "mandates:read");
        String token = token(c, null);
        awaitAccepted(token, true);
        admin().get("/admin/partners/" + p.id() + "/oauth-clients").then().statusCode(200)
                .body("data[0].client_id", equalTo(c.clientId())).body("data[0]", not(hasKey("client_secret")));
        admin().post("/admin/partners/" + p.id() + "/oauth-clients/" + c.clientId() + "/revoke").then().statusCode(200)
                .body("data.status", equalTo("revoked"));
        awaitAccepted(token, false);
        withToken(token, "GET", "/v1/mandates/mnd_probe", null).then().body("error.code", equalTo("invalid_token"));
        tokenBasic(c, null).then().statusCode(401).body("error", equalTo("invalid_client"));

        Client other = newClient(p, "mandates:read");
        String second = token(other, null);
        awaitAccepted(second, true);
        admin().post("/admin/partners/" + p.id() + "/revoke").then().statusCode(200);
        awaitAccepted(second, false);
        tokenBasic(other, null).then().statusCode(401).body("error", equalTo("invalid_client"));
    }

    @Test
    void rotationPublishesTwoKeysAndTokensOfBothVerify() {
        TestPartner p = Api.newPartner("Rotation");
        Client c = newClient(p, "mandates:read");
        String before = token(c, null);
        awaitAccepted(before, true);
        String oldKid = keys.signer().await().atMost(Duration.ofSeconds(10)).kid();
        String newKid = admin().post("/admin/oauth/signing-keys/rotate").then().statusCode(200)
                .body("data.previous_kid", equalTo(oldKid)).extract().path("data.kid");
        assertThat(newKid).isNotEqualTo(oldKid);
        given().get("/.well-known/jwks.json").then().statusCode(200)
                .body("keys.kid", hasItems(oldKid, newKid))
                .body("keys.kty", hasItems("EC"))
                .body("keys[0]", not(hasKey("d")));
        String after = token(c, null);
        assertThat(header(after)).contains(newKid);
        withToken(after, "GET", "/v1/mandates/mnd_probe", null).then().statusCode(404);
        withToken(before, "GET", "/v1/mandates/mnd_probe", null).then().statusCode(404);
    }

    @Test
    void anApiKeyCanBeRestrictedToScopes() {
        TestPartner p = Api.newPartner("Scoped key");
        admin().get("/admin/partners/" + p.id() + "/api-key-scopes").then().statusCode(200).body("data.all_scopes", equalTo(true));
        admin().contentType(ContentType.JSON).body(Map.of("scopes", List.of("mandates:read")))
                .put("/admin/partners/" + p.id() + "/api-key-scopes").then().statusCode(200)
                .body("data.scopes", equalTo(List.of("mandates:read"))).body("data.all_scopes", equalTo(false));
        await("key restricted").atMost(Duration.ofSeconds(30)).until(() -> p.as().contentType(ContentType.JSON)
                .body(Api.createBody("a", "b", Api.inDays(3))).post("/v1/mandates").statusCode() == 403);
        p.as().contentType(ContentType.JSON).body(Api.createBody("a", "b", Api.inDays(3))).post("/v1/mandates").then()
                .statusCode(403).body("error.code", equalTo("insufficient_scope"));
        p.as().get("/v1/mandates/mnd_probe").then().statusCode(404);
        admin().contentType(ContentType.JSON).body("{\"scopes\":null}")
                .put("/admin/partners/" + p.id() + "/api-key-scopes").then().statusCode(200).body("data.all_scopes", equalTo(true));
        await("key unrestricted").atMost(Duration.ofSeconds(30)).until(() -> p.as().contentType(ContentType.JSON)
                .body(Api.createBody("a", "b", Api.inDays(3))).post("/v1/mandates").statusCode() == 201);
    }

    @Test
    void theTokenEndpointIsRateLimitedPerClient() {
        TestPartner p = Api.newPartner("Hasty");
        Client c = newClient(p, "mandates:read");
        // %test: a burst of 8 per client_id, refilled at 0.01/s; the limit applies before the secret is checked
        int limited = 0;
        for (int i = 0; i < 12; i++) {
            Response r = i % 2 == 0 ? tokenBasic(c, null)
                    : given().auth().preemptive().basic(c.clientId(), "cs_" + "1".repeat(64)).contentType(ContentType.URLENC)
                            .formParam("grant_type", "client_credentials").post("/oauth/token");
            if (r.statusCode() == 429) {
                limited++;
                assertThat(r.header("Retry-After")).isNotNull();
                assertThat(r.jsonPath().getString("error.code")).isEqualTo("rate_limited");
            }
        }
        assertThat(limited).isEqualTo(4);
        // another client is not affected
        tokenBasic(newClient(p, "mandates:read"), null).then().statusCode(200);
    }

    @Test
    void metadataDocumentsNameTheServerKeysAndScopes() {
        given().get("/.well-known/oauth-authorization-server").then().statusCode(200)
                .body("issuer", equalTo(ISSUER))
                .body("token_endpoint", equalTo(ISSUER + "/oauth/token"))
                .body("jwks_uri", equalTo(ISSUER + "/.well-known/jwks.json"))
                .body("grant_types_supported", equalTo(List.of("client_credentials")))
                .body("token_endpoint_auth_methods_supported", equalTo(List.of("client_secret_basic", "client_secret_post")))
                .body("scopes_supported", hasItems("mandates:read", "disputes:write", "webhooks:manage"));
        given().get("/.well-known/oauth-protected-resource").then().statusCode(200)
                .body("resource", equalTo(ISSUER)).body("authorization_servers", equalTo(List.of(ISSUER)))
                .body("bearer_methods_supported", equalTo(List.of("header")));
        given().get("/.well-known/oauth-protected-resource/disco/mcp").then().statusCode(200)
                .body("resource", equalTo(ISSUER + "/disco/mcp"));
    }

    // ---- helpers

    private static java.security.KeyPairGenerator init(java.security.KeyPairGenerator g) throws Exception {
        g.initialize(new java.security.spec.ECGenParameterSpec("secp256r1"));
        return g;
    }

    private static JwtClaimsBuilder claims(TestPartner p, Client c, Instant now) {
        return Jwt.issuer(ISSUER).subject(p.id()).audience(ISSUER).issuedAt(now).expiresAt(now.plusSeconds(300))
                .claim("jti", UUID.randomUUID().toString()).claim("client_id", c.clientId()).claim("scope", "mandates:read");
    }

    private static String sign(JwtClaimsBuilder b, SigningKeys.Signer signer) {
        return b.jws().keyId(signer.kid()).type("at+jwt").algorithm(SignatureAlgorithm.ES256).sign(signer.key());
    }

    /** Signs exactly this payload (no claims added, unlike the build API). */
    private static String raw(String payload, SigningKeys.Signer signer) {
        try {
            org.jose4j.jws.JsonWebSignature jws = new org.jose4j.jws.JsonWebSignature();
            jws.setPayload(payload);
            jws.setKey(signer.key());
            jws.setKeyIdHeaderValue(signer.kid());
            jws.setHeader("typ", "at+jwt");
            jws.setAlgorithmHeaderValue("ES256");
            return jws.getCompactSerialization();
        } catch (org.jose4j.lang.JoseException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String b64(String s) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String hmac(String input, String key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(mac.doFinal(input.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String header(String token) {
        return new String(Base64.getUrlDecoder().decode(token.split("\\.")[0]), StandardCharsets.UTF_8);
    }

    private static Map<?, ?> claims(String token) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readValue(
                    Base64.getUrlDecoder().decode(token.split("\\.")[1]), Map.class);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
