package dev.agentpay.mandate;

import static dev.agentpay.mandate.support.Api.admin;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;

import dev.agentpay.commons.auth.ApiKeys;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.Api.TestMandate;
import dev.agentpay.mandate.support.Api.TestPartner;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Partner administration through the admin API, with the registry fed over the real Kafka topic. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class PartnerAdminTest {

    @Test
    void issuedKeyWorksOnTheMandateApi() {
        var r = admin().contentType(ContentType.JSON).body(Map.of("name", "Acme"))
                .post("/admin/partners").then().statusCode(201)
                .body("success", equalTo(true))
                .body("data.id", matchesPattern("ptn_[0-9a-f-]{36}"))
                .body("data.name", equalTo("Acme"))
                .body("data.status", equalTo("active"))
                .body("data.api_key", matchesPattern("sk_[0-9a-f]{64}"))
                .body("data.signing_secret", matchesPattern("[0-9a-f]{64}"))
                .extract();
        String key = r.path("data.api_key");
        Api.awaitKey(key, true);
        TestPartner p = new TestPartner(r.path("data.id"), key, r.path("data.signing_secret"));
        TestMandate m = Api.create(p);
        assertThat(Api.sign(m, "proposer", m.signature()).statusCode()).isEqualTo(200);
    }

    @Test
    void rotatingTheKeyRefusesTheOldOneAndAcceptsTheNew() {
        TestPartner p = Api.newPartner("Rotator");
        String newKey = admin().post("/admin/partners/" + p.id() + "/rotate-key").then().statusCode(200)
                .body("data.id", equalTo(p.id()))
                .body("data", not(hasKey("signing_secret")))
                .extract().path("data.api_key");
        assertThat(newKey).matches("sk_[0-9a-f]{64}").isNotEqualTo(p.apiKey());
        Api.awaitKey(p.apiKey(), false);
        Api.awaitKey(newKey, true);
        given().header("x-api-key", p.apiKey()).get("/v1/mandates/mnd_x").then().statusCode(401)
                .body("success", equalTo(false)).body("error.code", equalTo("unauthorized"));
    }

    @Test
    void revokingRefusesTheKeyEverywhereAndIsIdempotent() {
        TestPartner p = Api.newPartner("Revoked");
        admin().post("/admin/partners/" + p.id() + "/revoke").then().statusCode(200)
                .body("data.status", equalTo("revoked"));
        Api.awaitKey(p.apiKey(), false);
        p.as().contentType(ContentType.JSON).body(Api.createBody("a", "b", Api.inDays(1)))
                .post("/v1/mandates").then().statusCode(401).body("error.code", equalTo("unauthorized"));
        admin().post("/admin/partners/" + p.id() + "/revoke").then().statusCode(200)
                .body("data.status", equalTo("revoked"));
        admin().post("/admin/partners/" + p.id() + "/rotate-key").then().statusCode(409)
                .body("error.code", equalTo("partner_revoked"));
    }

    @Test
    void rotatingTheSigningSecretInvalidatesSignaturesMadeWithTheOldOne() {
        TestPartner p = Api.newPartner("Secretive");
        TestMandate m = Api.create(p);
        String secret = admin().post("/admin/partners/" + p.id() + "/rotate-signing-secret").then().statusCode(200)
                .body("data", not(hasKey("api_key")))
                .extract().path("data.signing_secret");
        assertThat(secret).matches("[0-9a-f]{64}").isNotEqualTo(p.signingSecret());
        assertThat(Api.sign(m, "proposer", m.signature()).statusCode()).isEqualTo(403);
        TestPartner rotated = new TestPartner(p.id(), p.apiKey(), secret);
        TestMandate same = new TestMandate(m.id(), m.proposer(), m.counterparty(), m.scope(), m.expiresAtIso(),
                m.canonicalTerms(), rotated);
        assertThat(Api.sign(same, "proposer", same.signature()).statusCode()).isEqualTo(200);
    }

    @Test
    void importIsIdempotentAndValidatesTheKeyShape() {
        String id = "dev-partner-" + System.nanoTime();
        String key = ApiKeys.generate();
        Map<String, Object> body = Map.of("name", "Dev", "api_key", key, "signing_secret", "dev-signing-secret-0123456789");
        admin().contentType(ContentType.JSON).body(body).put("/admin/partners/" + id).then().statusCode(201)
                .body("data.id", equalTo(id)).body("data", not(hasKey("api_key")));
        String updatedAt = admin().contentType(ContentType.JSON).body(body).put("/admin/partners/" + id).then()
                .statusCode(200).extract().path("data.updated_at");
        assertThat(admin().contentType(ContentType.JSON).body(body).put("/admin/partners/" + id).then()
                .statusCode(200).extract().<String>path("data.updated_at")).isEqualTo(updatedAt);
        Api.awaitKey(key, true);

        admin().contentType(ContentType.JSON).body(Map.of("name", "Dev", "api_key", "sk_123", "signing_secret", "x".repeat(32)))
                .put("/admin/partners/" + id).then().statusCode(400)
                .body("error.code", equalTo("validation_error"))
                .body("error.message", matchesPattern("api_key: .*"));
        admin().contentType(ContentType.JSON).body(Map.of("name", "Dev", "api_key", key, "signing_secret", "short"))
                .put("/admin/partners/" + id).then().statusCode(400)
                .body("error.message", matchesPattern("signing_secret: .*"));
        admin().contentType(ContentType.JSON).body(Map.of("api_key", key, "signing_secret", "x".repeat(32)))
                .put("/admin/partners/" + id).then().statusCode(400)
                .body("error.message", matchesPattern("name: .*"));
        // the same key under another id would let one key act as two partners
        admin().contentType(ContentType.JSON).body(body).put("/admin/partners/other-" + System.nanoTime()).then()
                .statusCode(409).body("error.code", equalTo("api_key_in_use"));
    }

    @Test
    void listAndGetNeverShowSecrets() {
        TestPartner p = Api.newPartner("Listed");
        List<Map<String, Object>> all = admin().get("/admin/partners").then().statusCode(200)
                .body("success", equalTo(true)).extract().path("data");
        assertThat(all).anySatisfy(e -> assertThat(e.get("id")).isEqualTo(p.id()));
        assertThat(all).allSatisfy(e -> assertThat(e).doesNotContainKeys("api_key", "signing_secret", "api_key_hash"));
        admin().get("/admin/partners/" + p.id()).then().statusCode(200)
                .body("data.name", equalTo("Listed"))
                .body("data", not(hasKey("api_key"))).body("data", not(hasKey("signing_secret")));
        String body = admin().get("/admin/partners").asString();
        assertThat(body).doesNotContain(p.apiKey()).doesNotContain(p.signingSecret()).doesNotContain(ApiKeys.hash(p.apiKey()));
    }

    @Test
    void adminEndpointsNeedTheAdminKey() {
        given().get("/admin/partners").then().statusCode(401).body("error.code", equalTo("unauthorized"));
        given().header("x-admin-key", "wrong").get("/admin/partners").then().statusCode(401);
        given().contentType(ContentType.JSON).body(Map.of("name", "x")).post("/admin/partners").then().statusCode(401);
        TestPartner p = Api.newPartner("NotAdmin");
        // a partner key is not an admin key
        given().header("x-admin-key", p.apiKey()).post("/admin/partners/" + p.id() + "/revoke").then().statusCode(401);
    }

    @Test
    void unknownPartnerAndBadBodies() {
        admin().post("/admin/partners/ptn_nope/rotate-key").then().statusCode(404)
                .body("error.code", equalTo("partner_not_found"));
        admin().post("/admin/partners/ptn_nope/revoke").then().statusCode(404);
        admin().get("/admin/partners/ptn_nope").then().statusCode(404);
        admin().contentType(ContentType.JSON).body("{}").post("/admin/partners").then().statusCode(400)
                .body("error.message", equalTo("name: is required"));
        admin().contentType(ContentType.TEXT).body("name=x").post("/admin/partners").then().statusCode(415);
    }
}
