package dev.agentpay.discovery;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.discovery.testing.UpstreamStubResource;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The MCP endpoint's findings of the outside pass (issue 33 item 5): media types and bounded header arguments. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(UpstreamStubResource.class)
class McpOutsidePassTest {

    static final ObjectMapper M = new ObjectMapper();
    static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";

    @Test
    void onlyApplicationJsonIsAccepted() {
        for (String type : List.of("application/jsonx", "application/json-patch+json", "application/json5", "text/json",
                "application/x-json", "application/jsonp; charset=utf-8")) {
            given().contentType(type).body(PING.getBytes(java.nio.charset.StandardCharsets.UTF_8)).post("/disco/mcp").then().statusCode(415)
                    .contentType("application/json").body("jsonrpc", equalTo("2.0")).body("error.code", equalTo(-32600));
        }
        for (String type : List.of("application/json", "application/json; charset=utf-8", "Application/JSON", "application/json ;charset=UTF-8")) {
            given().contentType(type).body(PING.getBytes(java.nio.charset.StandardCharsets.UTF_8)).post("/disco/mcp").then().statusCode(200).body("id", equalTo(1));
        }
    }

    /** Every argument sent on as an HTTP header has a maxLength in every tool's schema (a 45 KB x_payment came back as "HTTP 431"). */
    @Test
    void everyHeaderBoundArgumentIsBounded() throws Exception {
        JsonNode tools = M.readTree(given().contentType("application/json")
                .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}").post("/disco/mcp").asString()).at("/result/tools");
        int bounded = 0;
        for (JsonNode t : tools) {
            for (String arg : List.of("api_key", "x_payment")) {
                JsonNode p = t.at("/inputSchema/properties/" + arg);
                if (!p.isMissingNode()) {
                    assertThat(p.path("maxLength").asInt(0)).as("%s.%s maxLength", t.path("name").asText(), arg).isBetween(1, 16384);
                    bounded++;
                }
            }
        }
        assertThat(bounded).isGreaterThanOrEqualTo(4);
        String call = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"service_pay_invoice\","
                + "\"arguments\":{\"invoice_id\":\"6f1c2b1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b\",\"x_payment\":\"" + "A".repeat(45_000) + "\"}}}";
        JsonNode r = M.readTree(given().contentType("application/json").body(call).post("/disco/mcp").asString()).path("result");
        assertThat(r.path("isError").asBoolean()).as(r.toString()).isTrue();
        assertThat(r.at("/structuredContent/error/code").asText()).isEqualTo("invalid_arguments");
        assertThat(r.at("/content/1/text").asText()).contains("x_payment: must be at most 16384 characters");
    }
}
