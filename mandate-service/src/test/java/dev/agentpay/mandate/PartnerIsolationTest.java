package dev.agentpay.mandate;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.Api.TestMandate;
import dev.agentpay.mandate.support.Api.TestPartner;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Another partner's key gets 404 on every endpoint of a mandate (and its receipt), and changes nothing. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class PartnerIsolationTest {

    @Test
    void anotherPartnerSeesNothing() {
        TestPartner owner = Api.newPartner("Owner");
        TestPartner intruder = Api.newPartner("Intruder");
        TestMandate m = Api.signedByBoth(owner);
        String receipt = Api.get(m).path("data.drs_receipt_id");
        // the intruder even signs correctly with its own secret
        TestMandate fresh = Api.create(owner);
        String intruderSig = dev.agentpay.mandate.support.TestSigner.hmac(fresh.canonical(), intruder.signingSecret());

        intruder.as().get("/v1/mandates/" + m.id()).then().statusCode(404).body("error.code", equalTo("mandate_not_found"));
        intruder.as().get("/v1/receipts/" + receipt).then().statusCode(404).body("error.code", equalTo("receipt_not_found"));
        intruder.as().contentType(ContentType.JSON).body(Map.of("signer", "proposer", "signature", fresh.signature()))
                .post("/v1/mandates/" + fresh.id() + "/sign").then().statusCode(404).body("error.code", equalTo("mandate_not_found"));
        intruder.as().contentType(ContentType.JSON).body(Map.of("signer", "proposer", "signature", intruderSig))
                .post("/v1/mandates/" + fresh.id() + "/sign").then().statusCode(404);
        intruder.as().post("/v1/mandates/" + m.id() + "/start").then().statusCode(404).body("error.code", equalTo("mandate_not_found"));
        intruder.as().post("/v1/mandates/" + m.id() + "/complete").then().statusCode(404).body("error.code", equalTo("mandate_not_found"));
        intruder.as().contentType(ContentType.JSON).body(Map.of("reason", "not mine"))
                .post("/v1/mandates/" + m.id() + "/dispute").then().statusCode(404).body("error.code", equalTo("mandate_not_found"));

        assertThat(Api.get(m).jsonPath().getString("data.state")).isEqualTo("signed_by_both");
        assertThat(Api.get(fresh).jsonPath().getString("data.state")).isEqualTo("proposed");
        owner.as().get("/v1/receipts/" + receipt).then().statusCode(200);
        // the public view needs no key and is the same for everyone
        given().get("/v1/public/mandates/" + m.id()).then().statusCode(200).body("data.state", equalTo("signed_by_both"));
    }

    @Test
    void everyPartnerEndpointNeedsAKey() {
        String id = "mnd_00000000-0000-0000-0000-000000000000";
        given().get("/v1/mandates/" + id).then().statusCode(401).body("error.code", equalTo("unauthorized"));
        given().get("/v1/receipts/drs_x").then().statusCode(401);
        for (String action : new String[] {"sign", "start", "complete", "dispute"}) {
            given().contentType(ContentType.JSON).body("{}").post("/v1/mandates/" + id + "/" + action).then()
                    .statusCode(401).body("success", equalTo(false));
        }
        given().header("x-api-key", "not-a-key").get("/v1/mandates/" + id).then().statusCode(401);
    }
}
