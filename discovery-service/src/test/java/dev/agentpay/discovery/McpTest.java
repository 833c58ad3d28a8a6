package dev.agentpay.discovery;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.emptyOrNullString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.discovery.testing.UpstreamStub;
import dev.agentpay.discovery.testing.UpstreamStubResource;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The MCP tool server over its real HTTP surface, with real HTTP servers standing in for the wrapped services. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(UpstreamStubResource.class)
class McpTest {

    static final ObjectMapper M = new ObjectMapper();

    static Response rpc(String body) {
        return given().contentType("application/json").accept("application/json, text/event-stream").body(body).post("/disco/mcp");
    }

    static JsonNode call(String tool, Map<String, ?> args) throws Exception {
        ObjectNode req = M.createObjectNode().put("jsonrpc", "2.0").put("id", "c-1").put("method", "tools/call");
        req.putObject("params").put("name", tool).set("arguments", M.valueToTree(args));
        Response r = rpc(req.toString());
        r.then().statusCode(200).header("Mcp-Session-Id", nullValue());
        JsonNode out = M.readTree(r.asString());
        assertThat(out.get("id").asText()).isEqualTo("c-1");
        JsonNode result = out.get("result");
        assertThat(result).as("result of %s: %s", tool, out).isNotNull();
        // structuredContent is always mirrored, as JSON, in the first text block
        assertThat(result.path("content").get(0).path("type").asText()).isEqualTo("text");
        assertThat(M.readTree(result.path("content").get(0).path("text").asText())).isEqualTo(result.get("structuredContent"));
        return result;
    }

    @Test
    void toolsListWorksWithoutInitializeOrSession() throws Exception {
        Response r = rpc("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/list\",\"params\":{}}");
        r.then().statusCode(200).contentType("application/json").header("Mcp-Session-Id", nullValue())
                .body("id", equalTo(7)).body("result.tools.size()", equalTo(11));
        JsonNode tools = M.readTree(r.asString()).path("result").path("tools");
        for (JsonNode t : tools) {
            assertThat(t.path("name").asText()).startsWith("service_");
            assertThat(t.path("description").asText()).isNotBlank();
            assertThat(t.path("inputSchema").path("type").asText()).isEqualTo("object");
            assertThat(t.path("annotations").isObject()).isTrue();
        }
    }

    @Test
    void eachToolsInputSchemaEqualsTheSchemaItsSectionPublishes() throws Exception {
        JsonNode tools = M.readTree(rpc("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}").asString()).path("result").path("tools");
        JsonNode manifest = M.readTree(given().get("/.well-known/disco.json").asString());
        int compared = 0;
        for (JsonNode section : manifest.get("sections")) {
            JsonNode doc = M.readTree(given().get("/disco/sections/" + section.get("name").asText() + ".json").asString());
            for (JsonNode published : doc.get("mcp_tools")) {
                JsonNode listed = null;
                for (JsonNode t : tools) {
                    if (t.get("name").equals(published.get("name"))) {
                        listed = t;
                    }
                }
                assertThat(listed).as(published.get("name").asText()).isNotNull();
                assertThat(listed.get("inputSchema")).isEqualTo(published.get("inputSchema"));
                assertThat(listed.get("outputSchema")).isEqualTo(published.get("outputSchema"));
                assertThat(listed.get("description")).isEqualTo(published.get("description"));
                compared++;
            }
        }
        assertThat(compared).isEqualTo(tools.size());
    }

    @Test
    void initializeAndPingWork() {
        rpc("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                + "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}")
                .then().statusCode(200).header("Mcp-Session-Id", nullValue())
                .body("result.protocolVersion", equalTo("2025-06-18"))
                .body("result.capabilities.tools.listChanged", equalTo(false))
                .body("result.serverInfo.name", equalTo("agentpay-discovery"));
        rpc("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"1999-01-01\"}}")
                .then().statusCode(200).body("result.protocolVersion", equalTo("2025-11-25"));
        rpc("{\"jsonrpc\":\"2.0\",\"id\":\"p\",\"method\":\"ping\"}").then().statusCode(200).body("id", equalTo("p"))
                .body("result", equalTo(Map.of()));
    }

    @Test
    void notificationsAndResponsesAreAccepted() {
        rpc("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").then().statusCode(202).body(emptyOrNullString());
        rpc("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":1}}").then().statusCode(202);
        rpc("{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":{}}").then().statusCode(202);
    }

    @Test
    void getAndDeleteAre405() {
        given().accept("text/event-stream").get("/disco/mcp").then().statusCode(405).header("Allow", "POST")
                .body("error.code", equalTo(-32000));
        given().delete("/disco/mcp").then().statusCode(405);
    }

    @Test
    void foreignOriginOrHostIsRefused() {
        String list = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}";
        given().contentType("application/json").header("Origin", "http://evil.example").body(list).post("/disco/mcp")
                .then().statusCode(403).body("error.code", equalTo(-32000));
        given().contentType("application/json").header("Host", "evil.example").body(list).post("/disco/mcp")
                .then().statusCode(403);
        given().contentType("application/json").header("Host", "evil.example").header("Origin", "http://evil.example")
                .body(list).post("/disco/mcp").then().statusCode(403);
        // the platform's own origin and local tools pass
        given().contentType("application/json").header("Origin", UpstreamStubResource.stub().url()).body(list).post("/disco/mcp")
                .then().statusCode(200);
        given().contentType("application/json").header("Origin", "http://localhost:6274").body(list).post("/disco/mcp")
                .then().statusCode(200);
    }

    @Test
    void malformedMessagesAreJsonRpcErrors() {
        rpc("{not json").then().statusCode(400).body("error.code", equalTo(-32700)).body("id", nullValue());
        rpc("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} {}").then().statusCode(400).body("error.code", equalTo(-32700));
        rpc("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]").then().statusCode(400).body("error.code", equalTo(-32600));
        rpc("{\"id\":1,\"method\":\"ping\"}").then().statusCode(400).body("error.code", equalTo(-32600));
        rpc("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/list\"}").then().statusCode(200)
                .body("error.code", equalTo(-32601)).body("id", equalTo(2));
        rpc("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"no_such_tool\"}}").then().statusCode(200)
                .body("error.code", equalTo(-32602));
        rpc("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"service_get_pricing\",\"arguments\":[1]}}")
                .then().body("error.code", equalTo(-32602));
        given().contentType("text/plain").body("{}").post("/disco/mcp").then().statusCode(415);
    }

    @Test
    void pricingAndTrustSignalToolsReturnTheirSections() throws Exception {
        JsonNode pricing = call("service_get_pricing", Map.of());
        assertThat(pricing.get("isError").asBoolean()).isFalse();
        assertThat(pricing.get("structuredContent")).isEqualTo(M.readTree(given().get("/disco/sections/pricing.json").asString()));
        JsonNode trust = call("service_get_trust_signals", Map.of());
        assertThat(trust.get("structuredContent").path("metrics").has("drs_receipts_issued")).isTrue();
    }

    @Test
    void queryMandateWrapsThePublicView() throws Exception {
        String id = UpstreamStubResource.stub().mandate("signed_by_both");
        JsonNode r = call("service_query_mandate", Map.of("mandate_id", id));
        assertThat(r.get("isError").asBoolean()).isFalse();
        assertThat(r.at("/structuredContent/id").asText()).isEqualTo(id);
        assertThat(r.at("/structuredContent/state").asText()).isEqualTo("signed_by_both");
        JsonNode missing = call("service_query_mandate", Map.of("mandate_id", "mnd_00000000-0000-4000-8000-000000000000"));
        assertThat(missing.get("isError").asBoolean()).isTrue();
        assertThat(missing.at("/content/1/text").asText()).contains("not found");
        assertThat(missing.at("/structuredContent/error/code").asText()).isEqualTo("mandate_not_found");
        JsonNode bad = call("service_query_mandate", Map.of("mandate_id", "../admin"));
        assertThat(bad.get("isError").asBoolean()).isTrue();
        assertThat(bad.at("/structuredContent/error/code").asText()).isEqualTo("invalid_arguments");
    }

    @Test
    void disputeNeedsApiKeyAndAReasonOfTenCharacters() throws Exception {
        UpstreamStub stub = UpstreamStubResource.stub();
        String id = stub.mandate("signed_by_both");
        int before = stub.seen("POST", "/v1/mandates/" + id + "/dispute").size();

        JsonNode noKey = call("service_dispute_open", Map.of("mandate_id", id, "reason", "work was never delivered"));
        assertThat(noKey.get("isError").asBoolean()).isTrue();
        assertThat(noKey.at("/content/1/text").asText()).contains("api_key: is required");

        JsonNode shortReason = call("service_dispute_open", Map.of("mandate_id", id, "reason", "too short", "api_key", UpstreamStub.API_KEY));
        assertThat(shortReason.get("isError").asBoolean()).isTrue();
        assertThat(shortReason.at("/content/1/text").asText()).contains("reason: must be at least 10 characters");
        // refused arguments never reach mandate-service
        assertThat(stub.seen("POST", "/v1/mandates/" + id + "/dispute")).hasSize(before);

        JsonNode wrongKey = call("service_dispute_open", Map.of("mandate_id", id, "reason", "work was never delivered",
                "api_key", "sk_" + "00".repeat(32)));
        assertThat(wrongKey.get("isError").asBoolean()).isTrue();
        assertThat(wrongKey.at("/structuredContent/error/code").asText()).isEqualTo("unauthorized");

        JsonNode ok = call("service_dispute_open", Map.of("mandate_id", id, "reason", "work was never delivered", "api_key", UpstreamStub.API_KEY));
        assertThat(ok.get("isError").asBoolean()).as(ok.toString()).isFalse();
        assertThat(ok.at("/structuredContent/status").asText()).isEqualTo("disputed");
        UpstreamStub.Seen sent = stub.seen("POST", "/v1/mandates/" + id + "/dispute").get(stub.seen("POST", "/v1/mandates/" + id + "/dispute").size() - 1);
        assertThat(sent.headers().get("X-api-key")).containsExactly(UpstreamStub.API_KEY);
        JsonNode body = M.readTree(sent.body());
        assertThat(body.get("reason").asText()).isEqualTo("work was never delivered");
        assertThat(body.get("triggered_by").asText()).isNotBlank();

        JsonNode again = call("service_dispute_open", Map.of("mandate_id", id, "reason", "work was never delivered", "api_key", UpstreamStub.API_KEY));
        assertThat(again.get("isError").asBoolean()).isTrue();
        assertThat(again.at("/content/1/text").asText()).contains("cannot be disputed");
        assertThat(again.at("/structuredContent/error/code").asText()).isEqualTo("invalid_transition");
    }

    @Test
    void disputeEvidenceAndStatusWrapTheDisputeApiWithThePartnersCredential() throws Exception {
        UpstreamStub stub = UpstreamStubResource.stub();
        String id = stub.mandate("disputed");
        String path = "/v1/mandates/" + id + "/dispute/evidence";
        JsonNode noKey = call("service_dispute_add_evidence", Map.of("mandate_id", id, "party", "proposer", "text", "the log"));
        assertThat(noKey.get("isError").asBoolean()).isTrue();
        assertThat(noKey.at("/content/1/text").asText()).contains("api_key: is required");
        JsonNode sixLinks = call("service_dispute_add_evidence", Map.of("mandate_id", id, "party", "proposer", "text", "the log",
                "links", List.of("https://a/1", "https://a/2", "https://a/3", "https://a/4", "https://a/5", "https://a/6"),
                "api_key", UpstreamStub.API_KEY));
        assertThat(sixLinks.at("/content/1/text").asText()).contains("links: must have at most 5 items");
        JsonNode badLink = call("service_dispute_add_evidence", Map.of("mandate_id", id, "party", "proposer", "text", "the log",
                "links", List.of("ftp://a/1"), "api_key", UpstreamStub.API_KEY));
        assertThat(badLink.at("/content/1/text").asText()).contains("links[0]: does not have the expected form");
        JsonNode longText = call("service_dispute_add_evidence", Map.of("mandate_id", id, "party", "proposer",
                "text", "x".repeat(10_001), "api_key", UpstreamStub.API_KEY));
        assertThat(longText.at("/structuredContent/error/code").asText()).isEqualTo("invalid_arguments");
        assertThat(stub.seen("POST", path)).isEmpty();

        JsonNode ok = call("service_dispute_add_evidence", Map.of("mandate_id", id, "party", "counterparty", "text", "the log",
                "links", List.of("https://example.com/log"), "idempotency_key", "ev-1", "api_key", UpstreamStub.API_KEY));
        assertThat(ok.get("isError").asBoolean()).as(ok.toString()).isFalse();
        assertThat(ok.at("/structuredContent/evidence_id").asText()).startsWith("evd_");
        UpstreamStub.Seen sent = stub.seen("POST", path).get(0);
        assertThat(sent.headers().get("X-api-key")).containsExactly(UpstreamStub.API_KEY);
        assertThat(sent.headers().get("Idempotency-key")).containsExactly("ev-1");
        JsonNode body = M.readTree(sent.body());
        assertThat(body.get("party").asText()).isEqualTo("counterparty");
        assertThat(body.get("links").get(0).asText()).isEqualTo("https://example.com/log");
        assertThat(body.get("triggered_by").asText()).isEqualTo("mcp:service_dispute_add_evidence");
        assertThat(body.has("api_key")).isFalse();
        assertThat(body.has("idempotency_key")).isFalse();

        JsonNode party = call("service_dispute_add_evidence", Map.of("mandate_id", id, "party", "seller", "text", "the log",
                "api_key", UpstreamStub.API_KEY));
        assertThat(party.at("/structuredContent/error/code").asText()).isEqualTo("invalid_party");

        JsonNode status = call("service_dispute_status", Map.of("mandate_id", id, "access_token", UpstreamStub.BEARER));
        assertThat(status.get("isError").asBoolean()).as(status.toString()).isFalse();
        assertThat(status.at("/structuredContent/status").asText()).isEqualTo("open");
        assertThat(status.at("/structuredContent/sides/1/evidence/0/evidence_id").asText())
                .isEqualTo(ok.at("/structuredContent/evidence_id").asText());

        String signed = stub.mandate("signed_by_both");
        JsonNode notOpen = call("service_dispute_add_evidence", Map.of("mandate_id", signed, "party", "proposer", "text", "x",
                "api_key", UpstreamStub.API_KEY));
        assertThat(notOpen.at("/structuredContent/error/code").asText()).isEqualTo("dispute_not_open");
        JsonNode never = call("service_dispute_status", Map.of("mandate_id", signed, "api_key", UpstreamStub.API_KEY));
        assertThat(never.get("isError").asBoolean()).isTrue();
        assertThat(never.at("/structuredContent/error/code").asText()).isEqualTo("no_dispute");
        assertThat(never.at("/content/1/text").asText()).contains("never disputed");
    }

    @Test
    void chargeMandateSendsTheChargeWithKeyAndIdempotencyKeyAndQueryShowsTheBudgetOnlyWithAKey() throws Exception {
        UpstreamStub stub = UpstreamStubResource.stub();
        String id = stub.mandate("signed_by_both");
        JsonNode noKey = call("service_charge_mandate", Map.of("mandate_id", id, "amount", "0.10", "chain", "base"));
        assertThat(noKey.get("isError").asBoolean()).isTrue();
        assertThat(noKey.at("/content/1/text").asText()).contains("api_key: is required");
        JsonNode badAmount = call("service_charge_mandate", Map.of("mandate_id", id, "amount", "0.1234567", "chain", "base",
                "api_key", UpstreamStub.API_KEY));
        assertThat(badAmount.get("isError").asBoolean()).isTrue();
        assertThat(stub.seen("POST", "/v1/mandates/" + id + "/charges")).isEmpty();

        JsonNode ok = call("service_charge_mandate", Map.of("mandate_id", id, "amount", "0.10", "chain", "base",
                "idempotency_key", "order-1", "api_key", UpstreamStub.API_KEY));
        assertThat(ok.get("isError").asBoolean()).as(ok.toString()).isFalse();
        assertThat(ok.at("/structuredContent/invoice_id").asText()).isNotBlank();
        UpstreamStub.Seen sent = stub.seen("POST", "/v1/mandates/" + id + "/charges").get(0);
        assertThat(sent.headers().get("X-api-key")).containsExactly(UpstreamStub.API_KEY);
        assertThat(sent.headers().get("Idempotency-key")).containsExactly("order-1");
        JsonNode body = M.readTree(sent.body());
        assertThat(body.get("amount").asText()).isEqualTo("0.10");
        assertThat(body.has("api_key")).isFalse();

        String proposed = stub.mandate("proposed");
        JsonNode refused = call("service_charge_mandate", Map.of("mandate_id", proposed, "amount", "0.10", "chain", "base",
                "api_key", UpstreamStub.API_KEY));
        assertThat(refused.at("/structuredContent/error/code").asText()).isEqualTo("mandate_not_active");

        JsonNode publicOnly = call("service_query_mandate", Map.of("mandate_id", id));
        assertThat(publicOnly.at("/structuredContent/budget").isMissingNode()).isTrue();
        JsonNode withKey = call("service_query_mandate", Map.of("mandate_id", id, "api_key", UpstreamStub.API_KEY));
        assertThat(withKey.get("isError").asBoolean()).as(withKey.toString()).isFalse();
        assertThat(withKey.at("/structuredContent/budget/remaining").asText()).isEqualTo("1");
    }

    @Test
    void disputeTakesAnAccessTokenAsArgumentOrAsTheRequestsBearerHeader() throws Exception {
        UpstreamStub stub = UpstreamStubResource.stub();
        String first = stub.mandate("signed_by_both");
        JsonNode ok = call("service_dispute_open", Map.of("mandate_id", first, "reason", "work was never delivered",
                "access_token", UpstreamStub.BEARER));
        assertThat(ok.get("isError").asBoolean()).as(ok.toString()).isFalse();
        List<UpstreamStub.Seen> seen = stub.seen("POST", "/v1/mandates/" + first + "/dispute");
        assertThat(seen.get(seen.size() - 1).headers().get("Authorization")).containsExactly("Bearer " + UpstreamStub.BEARER);
        assertThat(seen.get(seen.size() - 1).headers()).doesNotContainKey("X-api-key");

        // the MCP request's own Authorization header, no credential argument
        String second = stub.mandate("signed_by_both");
        ObjectNode req = M.createObjectNode().put("jsonrpc", "2.0").put("id", "b-1").put("method", "tools/call");
        req.putObject("params").put("name", "service_dispute_open").set("arguments",
                M.valueToTree(Map.of("mandate_id", second, "reason", "work was never delivered")));
        JsonNode viaHeader = M.readTree(given().contentType("application/json").accept("application/json, text/event-stream")
                .header("Authorization", "Bearer " + UpstreamStub.BEARER).body(req.toString()).post("/disco/mcp")
                .then().statusCode(200).extract().asString()).get("result");
        assertThat(viaHeader.get("isError").asBoolean()).as(viaHeader.toString()).isFalse();
        assertThat(viaHeader.at("/structuredContent/status").asText()).isEqualTo("disputed");

        String third = stub.mandate("signed_by_both");
        JsonNode narrow = call("service_dispute_open", Map.of("mandate_id", third, "reason", "work was never delivered",
                "access_token", UpstreamStub.NARROW_BEARER));
        assertThat(narrow.get("isError").asBoolean()).isTrue();
        assertThat(narrow.at("/structuredContent/error/code").asText()).isEqualTo("insufficient_scope");
        JsonNode refused = call("service_dispute_open", Map.of("mandate_id", third, "reason", "work was never delivered",
                "access_token", "aaa.bbb.ccc"));
        assertThat(refused.get("isError").asBoolean()).isTrue();
        assertThat(refused.at("/structuredContent/error/code").asText()).isEqualTo("invalid_token");
        assertThat(refused.toString()).doesNotContain("aaa.bbb.ccc");
        JsonNode both = call("service_dispute_open", Map.of("mandate_id", third, "reason", "work was never delivered",
                "access_token", UpstreamStub.BEARER, "api_key", UpstreamStub.API_KEY));
        assertThat(both.get("isError").asBoolean()).isTrue();
        assertThat(both.at("/structuredContent/error/code").asText()).isEqualTo("invalid_arguments");
        JsonNode notAJwt = call("service_dispute_open", Map.of("mandate_id", third, "reason", "work was never delivered",
                "access_token", "not a token"));
        assertThat(notAJwt.at("/structuredContent/error/code").asText()).isEqualTo("invalid_arguments");
    }

    @Test
    void headerBoundArgumentsWithControlCharactersAreRefusedNamingTheArgument() throws Exception {
        UpstreamStub stub = UpstreamStubResource.stub();
        String id = stub.mandate("signed_by_both");
        int disputes = stub.seen("POST", "/v1/mandates/" + id + "/dispute").size();
        for (String key : new String[] {UpstreamStub.API_KEY + "\n", UpstreamStub.API_KEY + "\r\n", "sk_\u0000" + "a".repeat(63),
                "sk_" + "a".repeat(63) + "\u0007", "sk_" + "a".repeat(63) + "\u007f", " " + UpstreamStub.API_KEY, "sk_ü"}) {
            JsonNode r = call("service_dispute_open", Map.of("mandate_id", id, "reason", "work was never delivered", "api_key", key));
            assertThat(r.get("isError").asBoolean()).as(key).isTrue();
            assertThat(r.at("/structuredContent/error/code").asText()).isEqualTo("invalid_arguments");
            assertThat(r.at("/content/1/text").asText()).contains("api_key:").doesNotContain(UpstreamStub.API_KEY);
        }
        assertThat(stub.seen("POST", "/v1/mandates/" + id + "/dispute")).hasSize(disputes);

        int settles = stub.seen("POST", "/api/x402/settle").size();
        for (String proof : new String[] {"eyJ4\n16:40:00.000 INFO  [i.q.Application] forged", "eyJ4\r", "eyJ4 eyJ4", "eyJ4\u0000"}) {
            JsonNode r = call("service_settle_invoice", Map.of("invoice_id", "6f1c2b1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b", "x_payment", proof));
            assertThat(r.get("isError").asBoolean()).isTrue();
            assertThat(r.at("/structuredContent/error/code").asText()).isEqualTo("invalid_arguments");
            assertThat(r.at("/content/1/text").asText()).contains("x_payment:");
        }
        JsonNode tooLong = call("service_settle_invoice", Map.of("invoice_id", "6f1c2b1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b", "x_payment", "A".repeat(16385)));
        assertThat(tooLong.at("/content/1/text").asText()).contains("x_payment: must be at most 16384 characters");
        assertThat(stub.seen("POST", "/api/x402/settle")).hasSize(settles);
    }

    /** The platform's log rule is wired: the console handler of the running application filters through LogSafeFilter. */
    @Test
    void theConsoleLogPassesEveryRecordThroughTheLogSafeFilter() {
        java.util.List<java.util.logging.Filter> filters = new java.util.ArrayList<>();
        java.util.ArrayDeque<java.util.logging.Handler> todo = new java.util.ArrayDeque<>(
                java.util.List.of(java.util.logging.Logger.getLogger("").getHandlers()));
        while (!todo.isEmpty()) {
            java.util.logging.Handler h = todo.pop();
            if (h.getFilter() != null) {
                filters.add(h.getFilter());
            }
            if (h instanceof org.jboss.logmanager.ExtHandler ext) {
                todo.addAll(java.util.List.of(ext.getHandlers()));
            }
        }
        // whatever composite Quarkus builds around it, a record passing the handlers' filters comes out safe
        org.jboss.logmanager.ExtLogRecord r = new org.jboss.logmanager.ExtLogRecord(java.util.logging.Level.WARNING,
                "probe %s", org.jboss.logmanager.ExtLogRecord.FormatStyle.PRINTF, McpTest.class.getName());
        r.setParameters(new Object[] {UpstreamStub.API_KEY + "\n12:00:00.000 INFO  forged"});
        assertThat(filters).isNotEmpty();
        filters.forEach(f -> f.isLoggable(r));
        assertThat(r.getFormattedMessage()).doesNotContain(UpstreamStub.API_KEY).doesNotContain("\n")
                .isEqualTo("probe sk_abab***\\n12:00:00.000 INFO  forged");
    }

    @Test
    void idPatternsAreAnchoredAtTheVeryEnd() throws Exception {
        UpstreamStub stub = UpstreamStubResource.stub();
        String id = stub.mandate("signed_by_both");
        JsonNode r = call("service_query_mandate", Map.of("mandate_id", id + "\n"));
        assertThat(r.at("/structuredContent/error/code").asText()).isEqualTo("invalid_arguments");
        assertThat(r.at("/content/1/text").asText()).contains("mandate_id: does not have the expected form");
        JsonNode s = call("service_settle_invoice", Map.of("invoice_id", "6f1c2b1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b\n"));
        assertThat(s.at("/structuredContent/error/code").asText()).isEqualTo("invalid_arguments");
        assertThat(call("service_query_mandate", Map.of("mandate_id", id)).get("isError").asBoolean()).isFalse();
    }

    @Test
    void hugeAndTinyNumbersAreCleanErrorsNever500() throws Exception {
        for (String amount : new String[] {"1e400", "-1e400", "1e-400", "1" + "0".repeat(99), "0"}) {
            Response r = rpc("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"service_create_invoice\","
                    + "\"arguments\":{\"issuer\":\"s\",\"recipient\":\"b\",\"amount\":" + amount + "}}}");
            assertThat(r.statusCode()).as(amount).isEqualTo(200);
            JsonNode result = M.readTree(r.asString()).get("result");
            // refused here (not > 0) or by invoice-service (the stub answers 402 for a call without payment)
            assertThat(result.get("isError").asBoolean()).as(amount).isTrue();
        }
        Response tooLong = rpc("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"service_create_invoice\","
                + "\"arguments\":{\"amount\":1" + "0".repeat(100) + "}}}");
        tooLong.then().statusCode(400).body("error.code", equalTo(-32700));
        assertThat(tooLong.asString()).contains("JSON limit");
    }

    @Test
    void duplicateKeysAreRefusedAtEveryDepth() {
        for (String body : new String[] {
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"ping\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"service_get_pricing\",\"name\":\"service_dispute_open\"}}",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"service_create_invoice\",\"arguments\":{\"amount\":1,\"amount\":1000}}}"}) {
            Response r = rpc(body);
            r.then().statusCode(400).body("error.code", equalTo(-32700));
            assertThat(r.asString()).contains("repeats the key");
        }
    }

    @Test
    void theAnonymousMcpEndpointTakes64KiBWhileTheAdminPublishTakesMore() throws Exception {
        String padded = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"_meta\":{\"pad\":\"" + "x".repeat(70 * 1024) + "\"}}}";
        rpc(padded).then().statusCode(413).body("error.code", equalTo("payload_too_large"))
                .body("error.message", org.hamcrest.Matchers.containsString("65536"));
        String fits = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\",\"params\":{\"_meta\":{\"pad\":\"" + "x".repeat(60 * 1024) + "\"}}}";
        rpc(fits).then().statusCode(200);
        // a chunked body (no length) cannot be counted before Quarkus buffers it: refused on the small routes
        java.net.http.HttpResponse<String> chunked = java.net.http.HttpClient.newBuilder().version(java.net.http.HttpClient.Version.HTTP_1_1)
                .build().send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://localhost:" + io.restassured.RestAssured.port + "/disco/mcp"))
                        .header("Content-Type", "application/json")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(
                                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}".getBytes()))).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(chunked.statusCode()).isEqualTo(411);
        assertThat(chunked.body()).contains("length_required");
        // the publish route takes 8 MiB, from the admin only: an anonymous large body is refused before it is read
        String big = "{\"pad\":\"" + "x".repeat(200 * 1024) + "\"}";
        given().contentType("application/json").body(big).post("/disco/benchmark/publish").then().statusCode(401)
                .body("error.code", equalTo("unauthorized"));
        given().contentType("application/json").header("x-admin-key", UpstreamStubResource.AdminKey.VALUE).body(big)
                .post("/disco/benchmark/publish").then().statusCode(400);
    }

    @Test
    void x402ToolsWithoutPaymentReturnThePaymentRequiredObject() throws Exception {
        JsonNode r = call("service_create_invoice", Map.of("issuer", "seller", "recipient", "buyer", "email", "b@example.com", "amount", 0.01));
        assertThat(r.get("isError").asBoolean()).isTrue();
        JsonNode pr = r.get("structuredContent");
        assertThat(pr.get("x402Version").asInt()).isEqualTo(1);
        assertThat(pr.get("error").asText()).isNotBlank();
        assertThat(pr.at("/accepts/0/maxAmountRequired").asText()).isEqualTo("10000");
        assertThat(r.at("/content/1/text").asText()).contains("0.01 USDC").contains("x_payment");

        JsonNode s = call("service_settle_invoice", Map.of("invoice_id", "6f1c2b1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b"));
        assertThat(s.get("isError").asBoolean()).isTrue();
        assertThat(s.at("/structuredContent/accepts/0/maxAmountRequired").asText()).isEqualTo("5000");

        JsonNode badId = call("service_settle_invoice", Map.of("invoice_id", "nope"));
        assertThat(badId.at("/structuredContent/error/code").asText()).isEqualTo("invalid_arguments");
    }

    @Test
    void x402ToolsForwardThePaymentAndReturnTheResult() throws Exception {
        UpstreamStub stub = UpstreamStubResource.stub();
        ObjectNode payment = M.createObjectNode().put("x402Version", 1).put("scheme", "exact").put("network", "base");
        payment.putObject("payload").put("signature", "0x" + "ab".repeat(65)).putObject("authorization")
                .put("from", "0x2222222222222222222222222222222222222222").put("to", UpstreamStub.PAY_TO).put("value", "10000")
                .put("validAfter", "0").put("validBefore", "9999999999").put("nonce", "0x" + "00".repeat(32));
        String proof = Base64.getEncoder().encodeToString(payment.toString().getBytes());
        JsonNode r = call("service_create_invoice", Map.of("issuer", "seller", "description", "report", "x_payment", proof));
        assertThat(r.get("isError").asBoolean()).as(r.toString()).isFalse();
        assertThat(r.at("/structuredContent/capability").asText()).isEqualTo("invoice");
        assertThat(r.at("/structuredContent/result/status").asText()).isEqualTo("PENDING");
        UpstreamStub.Seen sent = stub.seen("POST", "/api/x402/invoice").get(stub.seen("POST", "/api/x402/invoice").size() - 1);
        assertThat(sent.headers().get("X-payment")).containsExactly(proof);
        assertThat(M.readTree(sent.body()).has("x_payment")).isFalse();

        // a payment for the wrong amount is refused with fresh requirements
        JsonNode wrong = call("service_settle_invoice", Map.of("invoice_id", "6f1c2b1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b", "x_payment", proof));
        assertThat(wrong.get("isError").asBoolean()).isTrue();
        assertThat(wrong.at("/content/1/text").asText()).contains("not accepted");
        assertThat(wrong.at("/structuredContent/accepts/0/maxAmountRequired").asText()).isEqualTo("5000");
    }

    @Test
    void anUnavailableServiceIsAReadableToolError() throws Exception {
        UpstreamStub stub = UpstreamStubResource.stub();
        stub.invoiceDown = true;
        try {
            JsonNode r = call("service_create_invoice", Map.of());
            assertThat(r.get("isError").asBoolean()).isTrue();
            assertThat(r.at("/structuredContent/error/status").asInt()).isEqualTo(503);
            assertThat(r.at("/content/1/text").asText()).contains("invoice-service");
        } finally {
            stub.invoiceDown = false;
        }
    }

    @Test
    void runnableSectionExamplesSucceedAsDescribed() throws Exception {
        JsonNode manifest = M.readTree(given().get("/.well-known/disco.json").asString());
        int ran = 0;
        for (JsonNode section : manifest.get("sections")) {
            JsonNode doc = M.readTree(given().get("/disco/sections/" + section.get("name").asText() + ".json").asString());
            for (JsonNode tool : doc.get("mcp_tools")) {
                for (JsonNode ex : tool.get("examples")) {
                    if (!ex.get("runnable_as_is").asBoolean()) {
                        continue;
                    }
                    JsonNode out = M.readTree(rpc(ex.get("request").toString()).then().statusCode(200).extract().asString());
                    JsonNode result = out.get("result");
                    String expect = ex.get("expect").asText();
                    if (expect.contains("PaymentRequired")) {
                        assertThat(result.get("isError").asBoolean()).isTrue();
                        assertThat(result.at("/structuredContent/accepts").isArray()).isTrue();
                    } else {
                        assertThat(result.get("isError").asBoolean()).as(tool.get("name") + ": " + out).isFalse();
                    }
                    ran++;
                }
            }
        }
        assertThat(ran).isGreaterThanOrEqualTo(4);
    }
}
