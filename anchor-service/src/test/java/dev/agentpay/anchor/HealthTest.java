package dev.agentpay.anchor;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import dev.agentpay.anchor.support.AnchorChainTestResource;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The service starts against real PostgreSQL, Kafka and anvil and reports itself ready. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(AnchorChainTestResource.class)
class HealthTest {

    @Test
    void readyWithDatabaseAndKafka() {
        // ready once every check passes, the partner registry read to its end included (not at the first instant)
        await("readiness UP").atMost(Duration.ofSeconds(60)).until(() -> given().when().get("/q/health/ready").statusCode() == 200);
        given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
        given().when().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void unknownPathIsAJsonError() {
        given().when().get("/v1/no-such-thing").then().statusCode(404)
                .body("success", equalTo(false)).body("error.code", equalTo("not_found"));
    }

    @Test
    void withoutANextKeyARotationIsRefusedAndChangesNothing() {
        String key = org.eclipse.microprofile.config.ConfigProvider.getConfig().getValue("platform.auth.admin-key", String.class);
        String signer = dev.agentpay.localstack.AnvilNode.DEV_ADDRESS_0.toLowerCase(java.util.Locale.ROOT);
        given().header("x-admin-key", key).post("/admin/v1/anchor/signers/rotate").then().statusCode(409)
                .body("success", equalTo(false)).body("error.code", equalTo("no_next_signer"));
        given().header("x-admin-key", key).get("/admin/v1/anchor/signers").then().statusCode(200)
                .body("data.active", equalTo(signer)).body("data.next", equalTo(null)).body("data.rotations.size()", equalTo(0));
        given().header("x-admin-key", "wrong").get("/admin/v1/anchor/signers").then().statusCode(401);
    }

    @Test
    void exposesMetricsAndOpenApi() {
        given().when().get("/q/metrics").then().statusCode(200);
        given().when().get("/q/openapi").then().statusCode(200);
    }
}
