package dev.agentpay.discovery;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.bench.atrr.AtrrHarness;
import dev.agentpay.discovery.testing.UpstreamStub;
import dev.agentpay.discovery.testing.UpstreamStubResource;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The ATRR harness end to end against this service, with real HTTP servers standing in for
 * mandate-service, invoice-service and the gateway: discovery from the manifest, 18 tasks, raw logs,
 * publish, and the published figure visible in benchmark.json. (On the full local stack the same
 * harness runs against the real services; see the README.)
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(UpstreamStubResource.class)
class AtrrHarnessTest {

    /** anvil's first development account (public knowledge, holds nothing of value). */
    static final String DEV_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";

    @Test
    void harnessFinishesEveryTaskAndPublishes() throws Exception {
        UpstreamStub stub = UpstreamStubResource.stub();
        stub.forwardTo = "http://localhost:" + RestAssured.port;
        AtrrHarness.Result r = new AtrrHarness(Map.of(
                "BASE_URL", stub.url(),
                "API_KEY", UpstreamStub.API_KEY,
                "SIGNING_SECRET", "test-signing-secret",
                "DEV_PAYER_PRIVATE_KEY", DEV_KEY,
                "ADMIN_API_KEY", UpstreamStubResource.AdminKey.VALUE,
                "ATRR_OUT", "target/atrr")).run();

        assertThat(r.tasks()).hasSize(18);
        assertThat(r.tasks()).allSatisfy(t -> assertThat(t.completed()).as(t.toString()).isTrue());
        assertThat(r.score()).isEqualTo(1.0);
        String log = Files.readString(r.rawLog());
        assertThat(log.lines().count()).isGreaterThan(18 * 2);
        // credentials never reach the raw log
        assertThat(log).doesNotContain(UpstreamStub.API_KEY).doesNotContain(UpstreamStubResource.AdminKey.VALUE)
                .doesNotContain(DEV_KEY.substring(2));

        String id = r.published().at("/data/id").asText();
        JsonPath b = given().get("/disco/benchmark.json").then().statusCode(200).extract().jsonPath();
        assertThat(b.getString("latest.id")).isEqualTo(id);
        assertThat(b.getFloat("latest.score")).isEqualTo(1.0f);
        assertThat(b.getBoolean("latest.meets_floor")).isTrue();
        String raw = b.getString("reproducibility.raw_logs_url");
        assertThat(raw).endsWith("/disco/benchmark/raw/" + id + ".jsonl");
        // the archive is served through the gateway URL the document names
        String served = given().baseUri(raw.substring(0, raw.indexOf("/disco/"))).port(-1).get(raw.substring(raw.indexOf("/disco/")))
                .then().statusCode(200).extract().asString();
        assertThat(served.lines().count()).isGreaterThan(18 * 2);
        assertThat(served).doesNotContain(UpstreamStub.API_KEY);
    }
}
