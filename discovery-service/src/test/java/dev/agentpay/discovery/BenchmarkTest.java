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
        given().contentType("application/json").header("x-admin-key", ADMIN).body(wrongMetric.toString()).post("/disco/benchmark/publish")
                .then().statusCode(400).body("error.message", equalTo("metric: must be \"ATRR\""));
        given().contentType("application/json").header("x-admin-key", ADMIN).body(wrongScore.toString()).post("/disco/benchmark/publish")
                .then().statusCode(400).body("error.message", equalTo("score: must equal tasks_completed / tasks_total"));
        given().contentType("application/json").header("x-admin-key", ADMIN).body(doc(18).put("tasks_total", "18").toString())
                .post("/disco/benchmark/publish").then().statusCode(400).body("error.code", equalTo("validation_error"))
                .body("error.message", equalTo("tasks_total: must be a number"));
        given().contentType("application/json").header("x-admin-key", ADMIN).body("[1,2]").post("/disco/benchmark/publish")
                .then().statusCode(400);
        given().contentType("application/json").header("x-admin-key", ADMIN).post("/disco/benchmark/publish")
                .then().statusCode(400).body("error.code", equalTo("invalid_json")).body("error.message", equalTo("request body is required"));
        given().contentType("application/json").header("x-admin-key", ADMIN).body("{oops").post("/disco/benchmark/publish")
                .then().statusCode(400).body("error.code", equalTo("invalid_json"));
        assertThat(given().get("/disco/benchmark.json").then().extract().header("ETag")).isEqualTo(before);
    }

    /**
     * The publish body schema clients read (reference benchmark-publish.schema.json, an independent JSON
     * Schema implementation) against what the endpoint enforces: every body the schema accepts is published,
     * every body it refuses is a 400 that changes nothing; the consistency rules the schema states in words
     * (and cannot express) are refused too.
     */
    @Test
    void thePublishedSchemaIsWhatTheEndpointEnforces() throws Exception {
        JsonNode schemaDoc = M.readTree(given().get("/disco/reference/benchmark-publish.schema.json").then().statusCode(200)
                .contentType(startsWith("application/schema+json")).extract().asString());
        String manifestSchema = given().get("/.well-known/disco.json").then().statusCode(200).extract().jsonPath()
                .getString("auth.schemes.find { it.name == 'admin' }.body_schema");
        assertThat(manifestSchema).endsWith("/disco/reference/benchmark-publish.schema.json");
        com.networknt.schema.Schema schema = com.networknt.schema.SchemaRegistry
                .withDefaultDialect(com.networknt.schema.SpecificationVersion.DRAFT_2020_12).getSchema(schemaDoc);

        ObjectNode integralDecimals = doc(18);
        integralDecimals.put("tasks_total", 18.0).put("tasks_completed", 18.0);
        ObjectNode offsetTime = doc(16).put("run_at", "2026-11-25T21:00:00.123+01:00");
        ObjectNode oneClass = doc(1);
        oneClass.putArray("task_classes").addObject().put("name", "all").put("attempted", 18).put("completed", 1);
        // the schema allows other members in a task class and at the top (kept there): not refused as unknown fields
        ObjectNode otherMembers = doc(18);
        ((ObjectNode) otherMembers.get("task_classes").get(0)).put("note", "warm cache");
        otherMembers.putObject("harness").put("name", "atrr-harness");
        for (ObjectNode valid : List.of(doc(18), doc(0), integralDecimals, offsetTime, oneClass, otherMembers)) {
            assertThat(schema.validate(valid)).as("schema-valid: %s", valid).isEmpty();
            given().contentType("application/json").header("x-admin-key", ADMIN).body(valid.toString())
                    .post("/disco/benchmark/publish").then().statusCode(201);
        }

        String before = given().get("/disco/benchmark.json").then().extract().header("ETag");
        List<ObjectNode> invalid = new java.util.ArrayList<>();
        for (String field : List.of("metric", "tasks_total", "tasks_completed", "score", "task_classes", "run_at", "raw_logs")) {
            ObjectNode d = doc(18);
            d.remove(field);
            invalid.add(d);
        }
        invalid.add(doc(18).put("metric", "atrr"));
        invalid.add(doc(18).put("tasks_total", 0));
        invalid.add(doc(18).put("tasks_total", 1001));
        invalid.add(doc(18).put("tasks_total", 17.5));
        invalid.add(doc(18).put("tasks_total", "18"));
        invalid.add(doc(18).put("tasks_completed", -1));
        invalid.add(doc(18).put("score", 1.5));
        invalid.add(doc(18).put("score", "1"));
        invalid.add(doc(18).put("run_at", "yesterday"));
        invalid.add(doc(18).put("run_at", "2026-11-25 21:00:00"));
        ObjectNode emptyClasses = doc(18);
        emptyClasses.putArray("task_classes");
        invalid.add(emptyClasses);
        ObjectNode blankName = doc(18);
        ((ObjectNode) blankName.get("task_classes").get(0)).put("name", "  ");
        invalid.add(blankName);
        ObjectNode noAttempted = doc(18);
        ((ObjectNode) noAttempted.get("task_classes").get(0)).remove("attempted");
        invalid.add(noAttempted);
        ObjectNode emptyLogs = doc(18);
        emptyLogs.putArray("raw_logs");
        invalid.add(emptyLogs);
        ObjectNode scalarLog = doc(18);
        ((com.fasterxml.jackson.databind.node.ArrayNode) scalarLog.get("raw_logs")).add(7);
        invalid.add(scalarLog);
        for (ObjectNode bad : invalid) {
            assertThat(schema.validate(bad)).as("schema-invalid: %s", bad).isNotEmpty();
            given().contentType("application/json").header("x-admin-key", ADMIN).body(bad.toString())
                    .post("/disco/benchmark/publish").then().statusCode(400).body("success", equalTo(false));
        }
        // schema-valid, refused by the consistency rules the schema's description states
        ObjectNode wrongScore = doc(15).put("score", 1.0);
        ObjectNode classesDontAddUp = doc(18);
        ((ObjectNode) classesDontAddUp.get("task_classes").get(0)).put("attempted", 4);
        ObjectNode moreCompletedThanAttempted = doc(12);
        // class a: 3 completed of 2 attempted; class f attempts one more, so both sums still add up
        ((ObjectNode) moreCompletedThanAttempted.get("task_classes").get(0)).put("attempted", 2);
        ((ObjectNode) moreCompletedThanAttempted.get("task_classes").get(5)).put("attempted", 4);
        for (ObjectNode inconsistent : List.of(wrongScore, classesDontAddUp, moreCompletedThanAttempted)) {
            assertThat(schema.validate(inconsistent)).as("schema-valid: %s", inconsistent).isEmpty();
            given().contentType("application/json").header("x-admin-key", ADMIN).body(inconsistent.toString())
                    .post("/disco/benchmark/publish").then().statusCode(400).body("error.code", equalTo("validation_error"));
        }
        assertThat(schemaDoc.get("description").asText()).contains("score equals tasks_completed / tasks_total",
                "add up to tasks_total", "at most its attempted");
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
