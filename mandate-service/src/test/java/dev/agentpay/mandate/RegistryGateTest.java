package dev.agentpay.mandate;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import dev.agentpay.commons.auth.ApiKeys;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.support.Api;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * As production runs it ({@code platform.auth.await-registry=true}): the instance becomes ready once its
 * partner registry has read the {@code partners} topic to the end, and from then on an unknown key is
 * a 401 and a known one works.
 */
@QuarkusTest
@TestProfile(RegistryGateTest.Profile.class)
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class RegistryGateTest {

    public static class Profile implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("platform.auth.await-registry", "true");
        }
    }

    @Test
    void readyOnceTheRegistryCaughtUpThenKeysAreJudged() {
        await("readiness with the partner registry caught up").atMost(Duration.ofSeconds(30)).until(() -> given().get("/q/health/ready").statusCode() == 200);
        given().get("/q/health/ready").then().body("checks.find { it.name == 'partner-registry' }.status", equalTo("UP"));
        given().header("x-api-key", ApiKeys.generate()).get("/v1/mandates/mnd_x").then().statusCode(401)
                .body("error.code", equalTo("unauthorized"));
        Api.TestPartner p = Api.newPartner("Gate");
        given().header("x-api-key", p.apiKey()).get("/v1/mandates/mnd_x").then().statusCode(404);
    }
}
