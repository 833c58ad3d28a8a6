package dev.agentpay.mandate;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.Api.TestMandate;
import dev.agentpay.mandate.support.Api.TestPartner;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The request records as bound and validated (README, "Requests: typed records"): every refusal a 400 naming
 * the JSON field, the same answers on every endpoint with a body, the optional body of start and complete,
 * Idempotency-Key over the bound body, and the OpenAPI schemas saying what the annotations enforce.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class TypedRequestTest {

    static TestPartner partner;

    @BeforeEach
    void partner() {
        if (partner == null) {
            partner = Api.newPartner("Typed");
        }
    }

    private static void refused(RequestSpecification spec, String path, String body, String code, String message) {
        spec.contentType(ContentType.JSON).body(body).request(path.startsWith("/admin/partners/") ? "PUT" : "POST", path).then().statusCode(400)
                .body("success", equalTo(false)).body("error.code", equalTo(code)).body("error.message", equalTo(message));
    }

    private static String create(String fields) {
        return "{\"proposer\":\"p\",\"counterparty\":\"c\",\"scope\":\"s\",\"terms\":{\"a\":1},\"expiry\":\"" + Api.inDays(2)
                + "\"" + fields + "}";
    }

    @Test
    void everyBodyRefusesWrongTypesUnknownFieldsAndAnAbsentBodyNamingTheField() {
        TestMandate m = Api.create(partner);
        String sign = "/v1/mandates/" + m.id() + "/sign";
        String dispute = "/v1/mandates/" + m.id() + "/dispute";
        String complete = "/v1/mandates/" + m.id() + "/complete";
        // wrong type: a number, an object or an array where a string belongs is not turned into text
        refused(partner.as(), "/v1/mandates", create(",\"scope\":12").replace("\"scope\":\"s\",", ""), "validation_error",
                "scope: must be a string");
        refused(partner.as(), "/v1/mandates", create(",\"signature_scheme\":true"), "validation_error",
                "signature_scheme: must be a string");
        refused(partner.as(), dispute, "{\"reason\":[\"r\"]}", "validation_error", "reason: must be a string");
        refused(partner.as(), complete, "{\"triggered_by\":{}}", "validation_error", "triggered_by: must be a string");
        refused(Api.admin(), "/admin/partners", "{\"name\":1.5}", "validation_error", "name: must be a string");
        // a timestamp field (OpenAPI format date-time) says what text it takes
        refused(partner.as(), "/v1/mandates", "{\"proposer\":\"p\",\"counterparty\":\"c\",\"scope\":\"s\",\"terms\":{\"a\":1},"
                + "\"expiry\":1700000000}", "validation_error", "expiry: must be an ISO 8601 timestamp string");
        // content after the body's object is not JSON
        refused(partner.as(), dispute, "{\"reason\":\"r\"} x", "invalid_json", "request body is not valid JSON");
        refused(partner.as(), dispute, "{\"reason\":\"r\"} {}", "invalid_json", "request body is not valid JSON");
        // the spec's own code for a signer that is not one of the two, whatever its type
        refused(partner.as(), sign, "{\"signer\":true,\"signature\":\"ab\"}", "invalid_signer",
                "signer must be \"proposer\" or \"counterparty\" (or, for a mandate created with parties, one of its roles)");
        // unknown fields, at the top and inside a record
        refused(partner.as(), "/v1/mandates", create(",\"amount\":1"), "validation_error", "amount: unknown field");
        refused(partner.as(), sign, "{\"signer\":\"proposer\",\"signature\":\"ab\",\"sig\":1}", "validation_error",
                "sig: unknown field");
        refused(partner.as(), complete, "{\"triggeredBy\":\"me\"}", "validation_error", "triggeredBy: unknown field");
        refused(Api.admin(), "/admin/partners", "{\"name\":\"n\",\"api_key\":\"k\"}", "validation_error",
                "api_key: unknown field");
        // an absent (or null) body where one is required
        for (String path : List.of("/v1/mandates", sign, dispute)) {
            refused(partner.as(), path, "", "invalid_json", "request body is required");
            refused(partner.as(), path, "null", "invalid_json", "request body is required");
        }
        refused(Api.admin(), "/admin/partners", "", "invalid_json", "request body is required");
        // not an object at all
        refused(partner.as(), dispute, "[\"r\"]", "invalid_body", "request body must be a JSON object");
        refused(partner.as(), dispute, "\"r\"", "invalid_body", "request body must be a JSON object");
        assertThat(Api.get(m).jsonPath().getString("data.state")).isEqualTo("proposed");
    }

    @Test
    void lengthsBlanksAndPatternsAreTheAnnotationsOnTheRecords() {
        TestMandate m = Api.signedByBoth(partner);
        refused(partner.as(), "/v1/mandates", create(",\"scope\":\"" + "s".repeat(10_001) + "\"").replace("\"scope\":\"s\",", ""),
                "validation_error", "scope: must be at most 10000 characters");
        refused(partner.as(), "/v1/mandates", create("").replace("\"counterparty\":\"c\"", "\"counterparty\":\" \""),
                "validation_error", "counterparty: must not be blank");
        refused(partner.as(), "/v1/mandates", create("").replace("\"counterparty\":\"c\",", ""),
                "validation_error", "counterparty: is required");
        refused(partner.as(), "/v1/mandates", create("").replace("\"counterparty\":\"c\"", "\"counterparty\":null"),
                "validation_error", "counterparty: is required");
        refused(partner.as(), "/v1/mandates", create(",\"signature_scheme\":\"eip712\""), "validation_error",
                "signature_scheme: must be \"hmac\" or \"hmac-role\" (a wallet party, written eip155:<chain id>:<address>, "
                        + "always signs with eip712)");
        refused(partner.as(), "/v1/mandates/" + m.id() + "/sign", "{\"signer\":\"proposer\",\"signature\":\"" + "a".repeat(133) + "\"}",
                "validation_error", "signature: must be at most 132 characters");
        refused(partner.as(), "/v1/mandates/" + m.id() + "/complete", "{\"triggered_by\":\"" + "t".repeat(257) + "\"}",
                "validation_error", "triggered_by: must be at most 256 characters");
        refused(partner.as(), "/v1/mandates/" + m.id() + "/dispute", "{\"reason\":\"" + "r".repeat(4001) + "\"}",
                "validation_error", "reason: must be at most 4000 characters");
        refused(Api.admin(), "/admin/partners", "{\"name\":\"" + "n".repeat(201) + "\"}", "validation_error",
                "name: must be at most 200 characters");
        refused(Api.admin().pathParam("id", "bad id"), "/admin/partners/{id}", "{\"name\":\"n\",\"api_key\":\"sk_" + "0".repeat(64)
                + "\",\"signing_secret\":\"" + "s".repeat(16) + "\"}", "validation_error",
                "id: must be 1 to 64 characters of letters, digits, '_', '.', '-'");
        Api.admin().contentType(ContentType.JSON).body("{\"name\":\"n\",\"api_key\":\"sk_" + "0".repeat(64)
                + "\",\"signing_secret\":\"" + "s".repeat(16) + "\",\"status\":\"paused\"}").put("/admin/partners/typed-" + UUID.randomUUID())
                .then().statusCode(400).body("error.message", equalTo("status: must be \"active\" or \"revoked\""));
        // a blank triggered_by is no triggered_by
        String by = Api.post(m, "complete", Map.of("triggered_by", " ")).jsonPath().getString("data.mandate.transitions[-1].metadata.triggered_by");
        assertThat(by).isEqualTo("system");
    }

    /** A refusal inside terms or context names the JSON path down to the value. */
    @Test
    void aNestedFieldIsNamedByItsJsonPath() {
        refused(partner.as(), "/v1/mandates", create("").replace("{\"a\":1}", "{\"a\":{\"b\":[1,2e400]}}"), "validation_error",
                "terms.a.b.1: a number must keep its value through the canonical encoding (an IEEE double, as JavaScript's "
                        + "JSON.parse reads it): finite, at most about 1.8e308, not below 5e-324 unless 0, and at most 17 "
                        + "significant digits that round-trip; send it as a string");
        partner.as().contentType(ContentType.JSON).body(create(",\"context\":{\"chat\":{\"line\":\"a\\u0000b\"}}"))
                .post("/v1/mandates").then().statusCode(400).body("error.code", equalTo("validation_error"))
                .body("error.message", startsWith("context.chat.line: must be well-formed Unicode text"));
        String deep = "{\"x\":".repeat(32) + "1" + "}".repeat(32);
        refused(partner.as(), "/v1/mandates", create(",\"context\":{\"k\":" + deep + "}"), "validation_error",
                "context: nests deeper than 32 levels");
        // terms nest as deep as the canonical encoding allows (32 levels), inside a body one level deeper
        String terms32 = "{\"x\":".repeat(31) + "{}" + "}".repeat(31);
        partner.as().contentType(ContentType.JSON).body(create("").replace("{\"a\":1}", terms32)).post("/v1/mandates").then()
                .statusCode(201);
    }

    @Test
    void startAndCompleteTakeAnEmptyBodyAnEmptyObjectOrNoContentType() {
        TestMandate m = Api.signedByBoth(partner);
        m.owner().as().contentType(ContentType.JSON).body("").post("/v1/mandates/" + m.id() + "/start").then().statusCode(200)
                .body("data.status", equalTo("in_progress"));
        given().header("x-api-key", partner.apiKey()).contentType(ContentType.JSON).body("{}")
                .post("/v1/mandates/" + m.id() + "/complete").then().statusCode(200).body("data.status", equalTo("completed"));
        TestMandate n = Api.signedByBoth(partner);
        // no body and no Content-Type at all
        given().header("x-api-key", partner.apiKey()).noContentType().post("/v1/mandates/" + n.id() + "/start").then()
                .statusCode(200);
        // a body of another type is still refused
        n.owner().as().contentType(ContentType.TEXT).body("now").post("/v1/mandates/" + n.id() + "/complete").then()
                .statusCode(415).body("error.code", equalTo("unsupported_media_type"));
    }

    /**
     * Idempotency-Key fingerprints the bound body: the same body replays the stored answer byte for byte
     * (whatever whitespace it is sent with), a changed value is a 409, also in terms; an empty body and {}
     * are the same request.
     */
    @Test
    void idempotentReplayOfTheBoundBody() {
        String key = "typed-" + UUID.randomUUID();
        String body = create("");
        var first = partner.as().header("Idempotency-Key", key).contentType(ContentType.JSON).body(body).post("/v1/mandates")
                .then().statusCode(201).extract();
        var again = partner.as().header("Idempotency-Key", key).contentType(ContentType.JSON)
                .body(body.replace(",", " ,\n ").replace("{", "{ ")).post("/v1/mandates").then().statusCode(201)
                .header("Idempotent-Replayed", "true").extract();
        assertThat(again.asString()).isEqualTo(first.asString());
        partner.as().header("Idempotency-Key", key).contentType(ContentType.JSON).body(body.replace("{\"a\":1}", "{\"a\":2}"))
                .post("/v1/mandates").then().statusCode(409).body("error.code", equalTo("idempotency_key_reused"));
        partner.as().header("Idempotency-Key", key).contentType(ContentType.JSON).body(body.replace("{\"a\":1}", "{\"a\":\"1\"}"))
                .post("/v1/mandates").then().statusCode(409).body("error.code", equalTo("idempotency_key_reused"));

        TestMandate m = Api.signedByBoth(partner);
        String startKey = "typed-start-" + UUID.randomUUID();
        String started = m.owner().as().header("Idempotency-Key", startKey).post("/v1/mandates/" + m.id() + "/start").then()
                .statusCode(200).extract().asString();
        String replayed = m.owner().as().header("Idempotency-Key", startKey).contentType(ContentType.JSON).body("{}")
                .post("/v1/mandates/" + m.id() + "/start").then().statusCode(200).header("Idempotent-Replayed", "true")
                .extract().asString();
        assertThat(replayed).isEqualTo(started);
        m.owner().as().header("Idempotency-Key", startKey).contentType(ContentType.JSON).body("{\"triggered_by\":\"ops\"}")
                .post("/v1/mandates/" + m.id() + "/start").then().statusCode(409).body("error.code", equalTo("idempotency_key_reused"));
    }

    /** The service's own OpenAPI document states what the Bean Validation annotations enforce. */
    @Test
    void theDocumentedSchemasAreTheEnforcedOnes() {
        JsonPath doc = given().accept("application/json").get("/q/openapi?format=json").then().statusCode(200).extract().jsonPath();
        String create = "components.schemas.CreateMandateRequest";
        assertThat(doc.getList(create + ".required", String.class))
                .containsExactlyInAnyOrder("proposer", "counterparty", "scope", "terms", "expiry");
        assertThat(doc.getInt(create + ".properties.scope.maxLength")).isEqualTo(10_000);
        assertThat(doc.getInt(create + ".properties.proposer.maxLength")).isEqualTo(256);
        assertThat(doc.getBoolean(create + ".additionalProperties")).isFalse();
        assertThat(doc.getInt("components.schemas.DisputeMandateRequest.properties.reason.maxLength")).isEqualTo(4000);
        assertThat(doc.getString("components.schemas.ImportPartnerRequest.properties.api_key.pattern")).contains("sk_[0-9a-f]{64}");
        assertThat(doc.getString("paths.'/v1/mandates'.post.requestBody.content.'application/json'.schema.$ref"))
                .endsWith("/CreateMandateRequest");
        assertThat(doc.getBoolean("paths.'/v1/mandates'.post.requestBody.required")).isTrue();
    }
}
