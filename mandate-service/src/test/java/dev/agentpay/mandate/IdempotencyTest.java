package dev.agentpay.mandate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.Api.TestMandate;
import dev.agentpay.mandate.support.Api.TestPartner;
import dev.agentpay.mandate.support.MandateEvents;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Idempotency-Key on every POST: stored answers replayed, a different body refused, keys scoped per partner. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class IdempotencyTest {

    static TestPartner partner;

    // not @BeforeAll: RestAssured points at the application only once a test runs
    @BeforeEach
    void partner() {
        if (partner == null) {
            partner = Api.newPartner("Idempotent");
        }
    }

    @Test
    void repeatedCreateReplaysTheFirstAnswerAndCreatesOneMandate() {
        String key = UUID.randomUUID().toString();
        Map<String, Object> body = Api.createBody("idem-p", "idem-c", Api.inDays(5));
        var first = partner.as().header("Idempotency-Key", key).contentType(ContentType.JSON).body(body)
                .post("/v1/mandates").then().statusCode(201).extract();
        var second = partner.as().header("Idempotency-Key", key).contentType(ContentType.JSON).body(body)
                .post("/v1/mandates").then().statusCode(201).header("Idempotent-Replayed", "true").extract();
        assertThat(second.asString()).isEqualTo(first.asString());
        String id = first.path("data.mandate_id");
        assertThat(first.header("Idempotent-Replayed")).isNull();
        // one mandate, one event
        MandateEvents.get().await(id, 1);
        assertThat(MandateEvents.get().of(id)).hasSize(1);

        Map<String, Object> changed = new HashMap<>(body);
        changed.put("scope", "something else");
        partner.as().header("Idempotency-Key", key).contentType(ContentType.JSON).body(changed).post("/v1/mandates")
                .then().statusCode(409).body("error.code", equalTo("idempotency_key_reused"));
        // the same key under another partner is another key
        TestPartner other = Api.newPartner("IdempotentOther");
        String otherId = other.as().header("Idempotency-Key", key).contentType(ContentType.JSON).body(body)
                .post("/v1/mandates").then().statusCode(201).extract().path("data.mandate_id");
        assertThat(otherId).isNotEqualTo(id);
    }

    @Test
    void repeatedSignAndCompleteReplayInsteadOfFailing() {
        TestMandate m = Api.create(partner);
        Map<String, String> body = Map.of("signer", "proposer", "signature", m.signature());
        String key = "sign-" + UUID.randomUUID();
        var first = partner.as().header("Idempotency-Key", key).contentType(ContentType.JSON).body(body)
                .post("/v1/mandates/" + m.id() + "/sign").then().statusCode(200).extract().asString();
        var again = partner.as().header("Idempotency-Key", key).contentType(ContentType.JSON).body(body)
                .post("/v1/mandates/" + m.id() + "/sign").then().statusCode(200).extract().asString();
        assertThat(again).isEqualTo(first);
        // without the key the repeat is refused, as it should be
        assertThat(Api.sign(m, "proposer", m.signature()).statusCode()).isEqualTo(409);
        // the same key on another endpoint is a different request
        partner.as().header("Idempotency-Key", key).post("/v1/mandates/" + m.id() + "/complete").then()
                .statusCode(409).body("error.code", equalTo("idempotency_key_reused"));

        Api.sign(m, "counterparty", m.signature());
        String ck = "complete-" + UUID.randomUUID();
        String c1 = partner.as().header("Idempotency-Key", ck).post("/v1/mandates/" + m.id() + "/complete").then()
                .statusCode(200).extract().asString();
        String c2 = partner.as().header("Idempotency-Key", ck).post("/v1/mandates/" + m.id() + "/complete").then()
                .statusCode(200).extract().asString();
        assertThat(c2).isEqualTo(c1);
        assertThat(Api.get(m).jsonPath().getList("data.transitions")).hasSize(5);

        String dk = "dispute-" + UUID.randomUUID();
        TestMandate d = Api.signedByBoth(partner);
        partner.as().header("Idempotency-Key", dk).contentType(ContentType.JSON).body(Map.of("reason", "late"))
                .post("/v1/mandates/" + d.id() + "/dispute").then().statusCode(200);
        partner.as().header("Idempotency-Key", dk).contentType(ContentType.JSON).body(Map.of("reason", "late"))
                .post("/v1/mandates/" + d.id() + "/dispute").then().statusCode(200)
                .header("Idempotent-Replayed", "true");
    }

    @Test
    void refusalsAreNotStoredAndBadKeysAreRefused() {
        TestMandate m = Api.create(partner);
        String key = "retry-" + UUID.randomUUID();
        Map<String, String> body = Map.of("signer", "proposer", "signature", m.signature());
        // first attempt refused (wrong signature), so the key stays free for the corrected request
        partner.as().header("Idempotency-Key", key).contentType(ContentType.JSON)
                .body(Map.of("signer", "proposer", "signature", dev.agentpay.mandate.support.TestSigner.tamper(m.signature())))
                .post("/v1/mandates/" + m.id() + "/sign").then().statusCode(403);
        partner.as().header("Idempotency-Key", key).contentType(ContentType.JSON).body(body)
                .post("/v1/mandates/" + m.id() + "/sign").then().statusCode(200);
        partner.as().header("Idempotency-Key", "x".repeat(256)).contentType(ContentType.JSON).body(body)
                .post("/v1/mandates/" + m.id() + "/sign").then().statusCode(400)
                .body("error.message", equalTo("Idempotency-Key: must be 1 to 255 visible ASCII characters"));
    }
}
