package dev.agentpay.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.bench.atrr.AtrrHarness;
import io.restassured.path.json.JsonPath;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Issue 7's "ATRR 1.00 on the local stack": the harness discovers everything from the manifest of the
 * running stack, runs its 18 tasks through the gateway (mandates signed by both parties and disputed
 * over MCP, invoices, x402 payments settled by the facilitator on the base chain), and publishes; the
 * published figure is what {@code benchmark.json} then shows.
 */
@Order(4)
class AtrrIT {

    @Test
    void everyTaskCompletesOnTheRealStackAndTheFigureIsPublished() throws Exception {
        Map<String, String> env = new HashMap<>(SharedStack.env());
        env.put("ATRR_OUT", "target/atrr");
        AtrrHarness.Result r = new AtrrHarness(env).run();

        assertThat(r.tasks()).hasSize(18);
        assertThat(r.tasks()).allSatisfy(t -> assertThat(t.completed()).as(t.toString()).isTrue());
        assertThat(r.score()).isEqualTo(1.0);
        String log = Files.readString(r.rawLog());
        assertThat(log).doesNotContain(env.get("API_KEY")).doesNotContain(env.get("ADMIN_API_KEY"))
                .doesNotContain(env.get("SIGNING_SECRET")).doesNotContain(env.get("DEV_PAYER_PRIVATE_KEY").substring(2));

        String id = r.published().at("/data/id").asText();
        JsonPath b = given().baseUri(env.get("BASE_URL")).get("/disco/benchmark.json").then().statusCode(200)
                .extract().jsonPath();
        assertThat(b.getString("latest.id")).isEqualTo(id);
        assertThat(b.getFloat("latest.score")).isEqualTo(1.0f);
        assertThat(b.getBoolean("latest.meets_floor")).isTrue();
        given().baseUri(env.get("BASE_URL")).get("/disco/benchmark/raw/" + id + ".jsonl").then().statusCode(200);
    }
}
