package dev.agentpay.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Disputes that end (issue 30) on the real stack, through the gateway: a mandate signed by both parties is
 * disputed; each side adds evidence (one over MCP {@code service_dispute_add_evidence}), each piece hashed and
 * anchored on chain like a transition; the case lists both sides in order ({@code service_dispute_status} too);
 * the operator's arbiter (admin key, on the service's own port: the gateway does not route {@code /admin}) refuses a
 * split that is not what is held, then resolves; {@code resolved} is anchored; the new webhook types are subscribable.
 */
@Order(4)
class DisputeIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void evidenceFromBothSidesIsAnchoredAndTheArbiterResolves() throws Exception {
        Map<String, String> env = SharedStack.env();
        String base = env.get("BASE_URL");
        String key = env.get("API_KEY");
        MandateFlows flows = new MandateFlows(base, key, env.get("SIGNING_SECRET"));
        String id = flows.create();
        String signature = flows.signature(flows.get(id));
        flows.sign(id, "proposer", signature);
        flows.sign(id, "counterparty", signature);
        given().baseUri(base).header("x-api-key", key).contentType("application/json")
                .body(Map.of("reason", "the report was never delivered", "triggered_by", "agent-e2e-a"))
                .post("/v1/mandates/" + id + "/dispute").then().statusCode(200);

        JsonNode first = JSON.readTree(given().baseUri(base).header("x-api-key", key).contentType("application/json")
                .body(Map.of("party", "proposer", "text", "Nothing arrived by the deadline.", "links", List.of("https://example.com/inbox")))
                .post("/v1/mandates/" + id + "/dispute/evidence").then().statusCode(201).extract().asString()).get("data");
        String expected = "{\"links\":[\"https://example.com/inbox\"],\"mandate_id\":\"" + id
                + "\",\"party\":\"proposer\",\"text\":\"Nothing arrived by the deadline.\"}";
        assertThat(first.get("sha256").asText()).isEqualTo("0x" + HexFormat.of().formatHex(
                MessageDigest.getInstance("SHA-256").digest(expected.getBytes(StandardCharsets.UTF_8))));
        JsonNode second = mcp(base, "service_dispute_add_evidence", Map.of("mandate_id", id, "party", "counterparty",
                "text", "Uploaded on time, see the log.", "api_key", key));
        assertThat(second.get("evidence_id").asText()).startsWith("evd_");
        int refused = given().baseUri(base).header("x-api-key", key).contentType("application/json")
                .body(Map.of("party", "inspector", "text", "x")).post("/v1/mandates/" + id + "/dispute/evidence").statusCode();
        assertThat(refused).isEqualTo(400);

        // both pieces are anchored on chain like transitions (disputed -> disputed rows), the dispute row too
        JsonNode anchored = await("evidence anchored").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).until(() -> {
            JsonNode c = disputeCase(base, key, id);
            boolean all = c.at("/sides/0/evidence/0/anchor_status").asText().equals("anchored")
                    && c.at("/sides/1/evidence/0/anchor_status").asText().equals("anchored");
            return all ? c : null;
        }, Objects::nonNull);
        assertThat(anchored.get("status").asText()).isEqualTo("open");
        assertThat(anchored.get("held").asText()).isEqualTo("0");
        assertThat(anchored.at("/sides/0/evidence/0/evidence_id").asText()).isEqualTo(first.get("evidence_id").asText());
        assertThat(anchored.at("/sides/1/evidence/0/evidence_id").asText()).isEqualTo(second.get("evidence_id").asText());
        assertThat(anchored.at("/sides/0/evidence/0/anchor_tx_hash").asText()).startsWith("0x");
        JsonNode status = mcp(base, "service_dispute_status", Map.of("mandate_id", id, "api_key", key));
        assertThat(status.get("status").asText()).isEqualTo("open");

        String admin = env.get("MANDATE_SERVICE_URL");
        assertThat(given().baseUri(base).header("x-admin-key", env.get("ADMIN_API_KEY")).contentType("application/json")
                .body(Map.of("to_counterparty", "0", "to_proposer", "0")).post("/admin/v1/disputes/" + id + "/resolve")
                .statusCode()).as("the gateway does not route /admin").isEqualTo(404);
        JsonNode mismatch = JSON.readTree(given().baseUri(admin).header("x-admin-key", env.get("ADMIN_API_KEY"))
                .contentType("application/json").body(Map.of("to_counterparty", "5", "to_proposer", "0"))
                .post("/admin/v1/disputes/" + id + "/resolve").then().statusCode(400).extract().asString());
        assertThat(mismatch.at("/error/code").asText()).isEqualTo("resolution_sum_mismatch");
        given().baseUri(admin).header("x-admin-key", env.get("ADMIN_API_KEY")).contentType("application/json")
                .body(Map.of("to_counterparty", "0", "to_proposer", "0", "note", "nothing was held; the seller's log is convincing"))
                .post("/admin/v1/disputes/" + id + "/resolve").then().statusCode(200);

        JsonNode proof = await("resolved anchored").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).until(() -> {
            JsonNode p = JSON.readTree(given().baseUri(base).get("/v1/public/mandates/" + id + "/proof").then().statusCode(200)
                    .extract().asString()).get("data");
            return "anchored".equals(p.path("anchor_status").asText()) ? p : null;
        }, Objects::nonNull);
        List<String> states = new java.util.ArrayList<>();
        long primary = Long.parseLong(SharedStack.env().get("ANCHOR_CHAIN_ID"));
        proof.get("anchors").forEach(a -> {
            if (a.get("chain_id").asLong() == primary) {
                states.add(a.get("to_state").asText());
            }
        });
        // every anchor chain of the stack holds each of them
        assertThat(proof.get("anchors").size()).isEqualTo(6 * MandateProofs.anchorChains(SharedStack.env()).size());
        assertThat(states).containsExactly("signed_by_proposer", "signed_by_both", "disputed", "disputed", "disputed", "resolved");
        JsonNode c = disputeCase(base, key, id);
        assertThat(c.get("state").asText()).isEqualTo("resolved");
        assertThat(c.at("/resolution/outcome").asText()).isEqualTo("arbiter");

        given().baseUri(base).header("x-api-key", key).contentType("application/json")
                .body(Map.of("url", "https://hooks.example.com/disputes", "secret", "disputes-e2e-secret-0123456789",
                        "events", List.of("mandate.dispute_evidence", "mandate.dispute_resolved")))
                .post("/v1/webhooks").then().statusCode(201);
    }

    private static JsonNode disputeCase(String base, String key, String id) throws Exception {
        return JSON.readTree(given().baseUri(base).header("x-api-key", key).get("/v1/mandates/" + id + "/dispute").then()
                .statusCode(200).extract().asString()).get("data");
    }

    private static JsonNode mcp(String base, String tool, Map<String, Object> args) throws Exception {
        String req = JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", 1, "method", "tools/call",
                "params", Map.of("name", tool, "arguments", args)));
        String body = given().baseUri(base).contentType("application/json").accept("application/json, text/event-stream")
                .body(req).post("/disco/mcp").then().statusCode(200).extract().asString();
        JsonNode result = JSON.readTree(body).path("result");
        assertThat(result.path("isError").asBoolean(true)).as(body).isFalse();
        return result.path("structuredContent");
    }
}
