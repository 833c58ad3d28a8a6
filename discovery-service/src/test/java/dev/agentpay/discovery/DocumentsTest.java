package dev.agentpay.discovery;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.startsWith;

import dev.agentpay.discovery.testing.UpstreamStubResource;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The discovery documents: contents, links, caching headers and conditional requests. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(UpstreamStubResource.class)
class DocumentsTest {

    static final List<String> SECTIONS = List.of("create_invoice", "query_mandate", "mandate_budget", "mandate_escrow", "dispute_flow", "pricing", "trust_signals");

    @Test
    void manifestListsEverySectionReferenceAndTheMcpEndpoint() {
        String base = UpstreamStubResource.stub().url();
        JsonPath m = given().get("/.well-known/disco.json").then().statusCode(200)
                .contentType(startsWith("application/json"))
                .body("mcp.endpoint", equalTo(base + "/disco/mcp"))
                .body("mcp.stateless", equalTo(true))
                .body("mcp.tools", hasItems("service_create_invoice", "service_settle_invoice", "service_query_mandate",
                        "service_dispute_open", "service_get_pricing", "service_get_trust_signals"))
                .body("pricing.url", equalTo(base + "/disco/sections/pricing.json"))
                .body("benchmark", equalTo(base + "/disco/benchmark.json"))
                .body("versions.proto_version", equalTo("0.1"))
                .body("versions.proto_versions", contains("0.1", "0.2"))
                .extract().jsonPath();
        // the configured contact (application.properties default), never a template placeholder
        assertThat(m.getString("auth.keys_from")).isEqualTo("support@agentpay.localhost").doesNotContain("<", ">", "{", "$");
        assertThat(m.<String>getList("sections.name")).containsExactlyElementsOf(SECTIONS);
        // every link in the manifest resolves on this service
        for (String url : concat(m.getList("sections.url"), m.getList("reference.url"))) {
            given().get(url.substring(base.length())).then().statusCode(200);
        }
        assertThat(m.<String>getList("reference.name")).contains("mandate-state-machine.json", "canonical-signing.md");
    }

    @Test
    void staticAnswersCarryCacheControlAndAStrongEtagAndAnswer304() {
        for (String path : List.of("/.well-known/disco.json", "/.well-known/agent-card.json", "/llms.txt",
                "/disco/sections/pricing.json", "/disco/sections/trust_signals.json", "/disco/reference/mandate-state-machine.json",
                "/disco/benchmark.json")) {
            Response r = given().get(path);
            r.then().statusCode(200).header("Cache-Control", equalTo("public, max-age=300"));
            String etag = r.header("ETag");
            assertThat(etag).as(path).matches("\"[0-9a-f]{32}\"");
            given().header("If-None-Match", etag).get(path).then().statusCode(304)
                    .header("ETag", equalTo(etag)).header("Cache-Control", equalTo("public, max-age=300"));
            given().header("If-None-Match", "W/" + etag).get(path).then().statusCode(304);
            given().header("If-None-Match", "\"other\", " + etag).get(path).then().statusCode(304);
            given().header("If-None-Match", "\"0000\"").get(path).then().statusCode(200);
            // the same content always has the same tag
            assertThat(given().get(path).header("ETag")).isEqualTo(etag);
        }
    }

    @Test
    void sectionsCarryToolSchemasPricesAndExamples() {
        // mandate_escrow is REST only (funding instructions are signed and sent by the payer's wallet, not an MCP call)
        given().get("/disco/sections/mandate_escrow.json").then().statusCode(200).body("mcp_tools.size()", equalTo(0))
                .body("rest.size()", org.hamcrest.Matchers.greaterThan(0));
        for (String s : SECTIONS.stream().filter(n -> !n.equals("mandate_escrow")).toList()) {
            given().get("/disco/sections/" + s + ".json").then().statusCode(200)
                    .body("name", equalTo(s))
                    .body("mcp_tools.size()", org.hamcrest.Matchers.greaterThan(0))
                    .body("mcp_tools[0].inputSchema.type", equalTo("object"))
                    .body("mcp_tools[0].examples.size()", org.hamcrest.Matchers.greaterThan(0));
        }
        JsonPath ci = given().get("/disco/sections/create_invoice.json").then().extract().jsonPath();
        assertThat(ci.<String>getList("mcp_tools.name")).containsExactly("service_create_invoice", "service_settle_invoice", "service_pay_invoice");
        assertThat(ci.getString("mcp_tools[0].price.amount")).isEqualTo("0.01");
        assertThat(ci.getString("mcp_tools[1].price.atomic")).isEqualTo("5000");
        JsonPath df = given().get("/disco/sections/dispute_flow.json").then().extract().jsonPath();
        assertThat(df.getInt("mcp_tools[0].inputSchema.properties.reason.minLength")).isEqualTo(10);
        assertThat(df.<String>getList("mcp_tools[0].inputSchema.required")).containsExactlyInAnyOrder("mandate_id", "reason");
    }

    @Test
    void pricingPublishesModelTiersAndEveryToolPrice() {
        JsonPath p = given().get("/disco/sections/pricing.json").then().statusCode(200)
                .body("model", equalTo("pay-per-call")).extract().jsonPath();
        assertThat(p.<String>getList("tiers.name")).containsExactly("public", "pay-per-call", "partner");
        Map<String, Object> invoice = p.getMap("tools.find { it.name == 'service_create_invoice' }");
        Map<String, Object> settle = p.getMap("tools.find { it.name == 'service_settle_invoice' }");
        Map<String, Object> query = p.getMap("tools.find { it.name == 'service_query_mandate' }");
        // the numbers invoice-service's 402 answers must carry (maxAmountRequired, 6 decimals)
        assertThat(invoice).containsEntry("price_usdc", "0.01").containsEntry("price_atomic", "10000").containsEntry("decimals", 6);
        assertThat(settle).containsEntry("price_usdc", "0.005").containsEntry("price_atomic", "5000");
        assertThat(query).containsEntry("price_usdc", "0");
        assertThat(p.<String>getList("tools.name")).hasSize(11);
        Map<String, Object> pay = p.getMap("tools.find { it.name == 'service_pay_invoice' }");
        assertThat(pay).containsEntry("price_usdc", "invoice amount").containsEntry("endpoint", "POST /v1/invoices/{id}/pay");
    }

    @Test
    void trustSignalsHaveTheSpecFields() {
        given().get("/disco/sections/trust_signals.json").then().statusCode(200)
                .body("metrics.drs_receipts_issued", org.hamcrest.Matchers.greaterThanOrEqualTo(0))
                .body("metrics.mandates_anchored", org.hamcrest.Matchers.greaterThanOrEqualTo(0))
                .body("metrics.invoices_settled", org.hamcrest.Matchers.greaterThanOrEqualTo(0))
                .body("partnerships", equalTo(List.of()));
    }

    @Test
    void referencesServeStateMachinesAndDeepDives() {
        given().get("/disco/reference/mandate-state-machine.json").then().statusCode(200)
                .body("terminal", equalTo(List.of("completed", "resolved", "expired")));
        given().get("/disco/reference/canonical-signing.md").then().statusCode(200)
                .contentType(startsWith("text/markdown")).body(org.hamcrest.Matchers.containsString("counterparty_agent_id"));
        given().get("/disco/reference/nope.md").then().statusCode(404).body("error.code", equalTo("reference_not_found"));
        given().get("/disco/sections/nope.json").then().statusCode(404).body("success", equalTo(false))
                .body("error.code", equalTo("section_not_found"));
    }

    @Test
    void agentCardAndLlmsTxtComeFromTheSameCatalog() {
        JsonPath card = given().get("/.well-known/agent-card.json").then().statusCode(200).extract().jsonPath();
        List<String> tools = given().get("/.well-known/disco.json").then().extract().jsonPath().getList("mcp.tools");
        assertThat(card.<String>getList("skills.id")).containsExactlyElementsOf(tools);
        assertThat(card.getString("url")).endsWith("/disco/mcp");
        String llms = given().get("/llms.txt").then().statusCode(200).contentType(startsWith("text/plain")).extract().asString();
        assertThat(llms).startsWith("# agentpay").contains("/.well-known/disco.json").contains("0.005 USDC per call");
        tools.forEach(t -> assertThat(llms).contains("`" + t + "`"));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        return java.util.stream.Stream.concat(a.stream(), b.stream()).toList();
    }
}
