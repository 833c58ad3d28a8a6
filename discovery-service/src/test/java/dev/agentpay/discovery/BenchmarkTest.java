package dev.agentpay.discovery;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.events.PlatformEvent;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.discovery.testing.UpstreamStubResource;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.localstack.testing.TestKafka;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** Publishing a benchmark: admin only, validated, stored with raw logs, announced through the outbox. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(UpstreamStubResource.class)
class BenchmarkTest {

    static final ObjectMapper M = new ObjectMapper();
    static final String ADMIN = UpstreamStubResource.AdminKey.VALUE;

    static ObjectNode doc(int completed) {
        ObjectNode d = M.createObjectNode();
        d.put("metric", "ATRR");
        d.put("tasks_total", 18);
        d.put("tasks_completed", completed);
        d.put("score", completed / 18.0);
        d.put("run_at", Instant.now().toString());
        d.put("harness", "test");
        var classes = d.putArray("task_classes");
        int left = completed;
        for (String c : List.of("a", "b", "c", "d", "e", "f")) {
            int done = Math.min(3, left);
            left -= done;
            classes.addObject().put("name", c).put("attempted", 3).put("completed", done);
        }
        var logs = d.putArray("raw_logs");
        logs.addObject().put("task", "a-1").put("status", 200);
        logs.addObject().put("task", "a-2").put("status", 200);
        return d;
    }

    @Test
    void publishNeedsTheAdminKey() {
        given().contentType("application/json").body(doc(18).toString()).post("/disco/benchmark/publish").then().statusCode(401)
                .body("error.code", equalTo("unauthorized"));
        given().contentType("application/json").header("x-admin-key", "wrong").body(doc(18).toString()).post("/disco/benchmark/publish")
                .then().statusCode(401);
    }

    @Test
    void invalidDocumentsAre400AndChangeNothing() {
        String before = given().get("/disco/benchmark.json").then().extract().header("ETag");
        ObjectNode wrongMetric = doc(18).put("metric", "speed");
        ObjectNode wrongScore = doc(15).put("score", 1.0);
        ObjectNode noLogs = doc(18);
        noLogs.remove("raw_logs");
        ObjectNode badClasses = doc(18);
        ((ObjectNode) badClasses.get("task_classes").get(0)).put("completed", 2);
        for (ObjectNode bad : List.of(wrongMetric, wrongScore, noLogs, badClasses)) {
            given().contentType("application/json").header("x-admin-key", ADMIN).body(bad.toString()).post("/disco/benchmark/publish")
                    .then().statusCode(400).body("success", equalTo(false)).body("error.code", equalTo("validation_error"));
        }
        given().contentType("application/json").header("x-admin-key", ADMIN).body("[1,2]").post("/disco/benchmark/publish")
                .then().statusCode(400);
        given().contentType("application/json").header("x-admin-key", ADMIN).body("{oops").post("/disco/benchmark/publish")
                .then().statusCode(400).body("error.code", equalTo("invalid_json"));
        assertThat(given().get("/disco/benchmark.json").then().extract().header("ETag")).isEqualTo(before);
    }

    @Test
    void publishStoresUpdatesBenchmarkJsonServesRawLogsAndEmitsTheEvent() throws Exception {
        JsonPath r = given().contentType("application/json").header("x-admin-key", ADMIN).body(doc(17).toString())
                .post("/disco/benchmark/publish").then().statusCode(201).body("success", equalTo(true)).extract().jsonPath();
        String id = r.getString("data.id");
        String base = UpstreamStubResource.stub().url();
        assertThat(r.getBoolean("data.meets_floor")).isTrue();
        assertThat(r.getString("data.raw_logs_url")).isEqualTo(base + "/disco/benchmark/raw/" + id + ".jsonl");

        JsonPath b = given().get("/disco/benchmark.json").then().statusCode(200).extract().jsonPath();
        assertThat(b.getString("latest.id")).isEqualTo(id);
        assertThat(b.getInt("latest.tasks_completed")).isEqualTo(17);
        assertThat(b.getFloat("floor")).isEqualTo(0.8f);
        assertThat(b.getString("reproducibility.raw_logs_url")).isEqualTo(base + "/disco/benchmark/raw/" + id + ".jsonl");
        assertThat(b.getString("history[0].id")).isEqualTo(id);

        String raw = given().get("/disco/benchmark/raw/" + id + ".jsonl").then().statusCode(200)
                .contentType(startsWith("application/x-ndjson")).header("Cache-Control", equalTo("public, max-age=31536000, immutable"))
                .extract().asString();
        assertThat(raw.lines().toList()).hasSize(2);
        assertThat(M.readTree(raw.lines().findFirst().orElseThrow()).get("task").asText()).isEqualTo("a-1");
        given().get("/disco/benchmark/raw/bm_" + "0".repeat(32) + ".jsonl").then().statusCode(404);
        given().get("/disco/benchmark/raw/../../etc.jsonl").then().statusCode(404);

        JsonNode event = awaitEvent(id);
        assertThat(event.get("type").asText()).isEqualTo(PlatformEvent.BENCHMARK_PUBLISHED);
        assertThat(event.at("/data/score").decimalValue()).isEqualByComparingTo("0.9444");
        assertThat(event.at("/data/raw_logs_url").asText()).endsWith(id + ".jsonl");
    }

    private static JsonNode awaitEvent(String aggregateId) throws Exception {
        ConsumerRecord<String, String> rec;
        try (ConsumerTask<String, String> events = TestKafka.collect(Topics.PLATFORM_EVENTS)) {
            rec = await("a disco.benchmark.published event for " + aggregateId).atMost(Duration.ofSeconds(30))
                    .until(() -> events.stream().filter(r -> aggregateId.equals(r.key())).findFirst(), Optional::isPresent)
                    .orElseThrow();
        }
        JsonNode e = M.readTree(rec.value());
        assertThat(TestKafka.header(rec, "event-type")).isEqualTo(PlatformEvent.BENCHMARK_PUBLISHED);
        assertThat(TestKafka.header(rec, "event-id")).isEqualTo(e.get("eventId").asText());
        return e;
    }
}
