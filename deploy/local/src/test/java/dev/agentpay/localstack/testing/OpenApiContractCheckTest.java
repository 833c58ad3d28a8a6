package dev.agentpay.localstack.testing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The contract check on a small document: what it must refuse, and what it must let through. */
class OpenApiContractCheckTest {

    static final String DOC = """
            {"openapi":"3.1.0","paths":{
              "/v1/things":{"post":{"operationId":"createThing","summary":"Create a thing","responses":{
                "201":{"content":{"application/json":{"schema":{"type":"object","required":["success","data"],
                  "properties":{"success":{"type":"boolean"},"data":{"$ref":"#/components/schemas/Thing"}}}}}},
                "400":{"content":{"application/json":{"schema":{"$ref":"#/components/schemas/ErrorBody"}}}}}}},
              "/v1/things/{id}":{"get":{"operationId":"ThingResource_get","summary":"Get","responses":{
                "200":{"content":{"application/json":{}}}}}},
              "/v1/things/latest":{"get":{"operationId":"getLatestThing","summary":"Read the newest thing","responses":{
                "204":{"description":"none"}}}}},
             "components":{"schemas":{
              "Thing":{"type":"object","required":["id"],"properties":{"id":{"type":"string"},
                "note":{"type":["string","null"]},"tags":{"type":"object","additionalProperties":{"type":"string"}}}},
              "ErrorBody":{"type":"object","required":["success","error"],"properties":{"success":{"type":"boolean"},
                "error":{"type":"object","required":["code","message"],"properties":{"code":{"type":"string"},
                "message":{"type":"string"}}}}}}}}
            """;

    final OpenApiContractCheck check = OpenApiContractCheck.of(DOC);

    @Test
    void aDocumentedAnswerPasses() {
        assertThat(check.check("POST", "/v1/things", 201, "application/json;charset=UTF-8",
                "{\"success\":true,\"data\":{\"id\":\"t1\",\"note\":null,\"tags\":{\"any\":\"x\"}}}")).isEmpty();
        assertThat(check.check("POST", "/v1/things", 400, "application/json",
                "{\"success\":false,\"error\":{\"code\":\"validation_error\",\"message\":\"id: required\"}}")).isEmpty();
        assertThat(check.check("GET", "/v1/things/latest", 204, null, "")).isEmpty();
    }

    @Test
    void anUndocumentedStatusFails() {
        assertThat(check.check("POST", "/v1/things", 403, "application/json",
                "{\"success\":false,\"error\":{\"code\":\"invalid_signature\",\"message\":\"no\"}}"))
                .singleElement().asString().contains("POST /v1/things answered 403", "documented: [201, 400]");
    }

    @Test
    void aFieldTheSchemaDoesNotNameFails() {
        assertThat(check.check("POST", "/v1/things", 201, "application/json",
                "{\"success\":true,\"data\":{\"id\":\"t1\",\"disputed_at\":\"2026-11-26T00:00:00Z\"}}"))
                .singleElement().asString().contains("disputed_at");
        assertThat(check.check("POST", "/v1/things", 400, "application/json",
                "{\"success\":false,\"error\":{\"code\":\"x\",\"message\":\"y\",\"trace\":\"z\"}}"))
                .singleElement().asString().contains("trace");
    }

    @Test
    void aMissingRequiredFieldOrAWrongTypeFails() {
        assertThat(check.check("POST", "/v1/things", 201, "application/json", "{\"success\":true,\"data\":{}}")).hasSize(1);
        assertThat(check.check("POST", "/v1/things", 201, "application/json",
                "{\"success\":\"yes\",\"data\":{\"id\":\"t1\"}}")).hasSize(1);
    }

    @Test
    void aJsonAnswerWithoutADocumentedSchemaFails() {
        assertThat(check.check("GET", "/v1/things/t1", 200, "application/json", "{\"jsonrpc\":\"2.0\"}"))
                .singleElement().asString().contains("gives no JSON schema");
    }

    @Test
    void theMostLiteralPathWinsAndUndocumentedRequestsAreNotJudged() {
        assertThat(check.template("GET", "/v1/things/latest")).contains("/v1/things/latest");
        assertThat(check.template("GET", "/v1/things/abc")).contains("/v1/things/{id}");
        assertThat(check.check("GET", "/v1/elsewhere", 404, "application/json", "{}")).isEmpty();
        assertThat(check.check("DELETE", "/v1/things", 405, "application/json", "{}")).isEmpty();
    }

    @Test
    void operationIdsAndSummariesAreClientStyle() {
        assertThat(check.conventions()).hasSize(2).allSatisfy(f -> assertThat(f).contains("GET /v1/things/{id}"));
        assertThat(OpenApiContractCheck.of(DOC.replace("\"Get\"", "\"Read a thing\"")).conventions())
                .singleElement().asString().contains("not client-style");
        assertThat(OpenApiContractCheck.of(DOC.replace("ThingResource_get", "getThing")).conventions())
                .singleElement().asString().contains("summary \"Get\"");
    }

    @Test
    void javaOnlyPatternsAreFound() {
        String doc = DOC.replace("ThingResource_get", "getThing").replace("\"Get\"", "\"Read a thing\"")
                .replace("\"id\":{\"type\":\"string\"}", "\"id\":{\"type\":\"string\",\"pattern\":\"(?i)\\\\s*(a|b)\"}");
        assertThat(OpenApiContractCheck.of(doc).conventions()).singleElement().asString()
                .contains("components/schemas/Thing/properties/id", "not ECMA-262");
    }
}
