package dev.agentpay.settlement;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.specification.RequestSpecification;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /admin/sweeps}' typed parameters: {@code limit} is a whole number (Bean Validation) from 1 to 500,
 * each refusal a 400 {@code validation_error} naming it; the operator key is required. (The ledger's content
 * is {@code SweepTest}'s.)
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class SweepAdminTest {

    private static RequestSpecification admin() {
        return given().header("x-admin-key", ConfigProvider.getConfig().getValue("platform.auth.admin-key", String.class));
    }

    @Test
    void limitIsAWholeNumberInRange() {
        for (String bad : new String[] {"abc", "1.5", "-1", "99999999999"}) {
            admin().queryParam("limit", bad).get("/admin/sweeps").then().statusCode(400)
                    .body("success", equalTo(false)).body("error.code", equalTo("validation_error"))
                    .body("error.message", org.hamcrest.Matchers.startsWith("limit: "));
        }
        admin().queryParam("limit", "abc").get("/admin/sweeps").then().body("error.message", equalTo("limit: must be a whole number"));
        admin().queryParam("limit", "0").get("/admin/sweeps").then().statusCode(400)
                .body("error.message", equalTo("limit: must be an integer from 1 to 500"));
        admin().queryParam("limit", "501").get("/admin/sweeps").then().statusCode(400)
                .body("error.message", equalTo("limit: must be an integer from 1 to 500"));
        admin().queryParam("limit", "500").get("/admin/sweeps").then().statusCode(200).body("data.chains", notNullValue());
        admin().get("/admin/sweeps").then().statusCode(200).body("success", equalTo(true));
        given().queryParam("limit", "abc").get("/admin/sweeps").then().statusCode(401);
    }
}
