package dev.agentpay.invoice.rest;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.invoice.TestSupport;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The typed request records through HTTP: what Jackson refuses while binding (wrong type, unknown field,
 * repeated key, not an object, absent body, too deep) and what Bean Validation refuses (lengths, amount forms,
 * the deadline window, JSON names of fields), each a 400 naming the field with the code this service has
 * always answered; amounts are the exact decimal sent.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class RequestBindingTest {

    @Inject
    PartnerRegistry registry;

    String key;

    @BeforeEach
    void partner() {
        key = TestSupport.partner(registry);
    }

    private Response post(String body) {
        return given().header("x-api-key", key).contentType(ContentType.JSON).body(body).post("/v1/invoices");
    }

    private void refused(Response r, String code, String message) {
        r.then().statusCode(400).body("success", equalTo(false)).body("error.code", equalTo(code))
                .body("error.message", startsWith(message));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            // wrong JSON types are never coerced
            "{\"amount\": \"10\", \"chain\": \"base\"}|validation_error|amount: must be a number",
            "{\"amount\": true, \"chain\": \"base\"}|validation_error|amount: must be a number",
            "{\"amount\": [1], \"chain\": \"base\"}|validation_error|amount: must be a number",
            "{\"amount\": 1, \"chain\": 8453}|validation_error|chain: must be a string",
            "{\"amount\": 1, \"chain\": \"base\", \"customerName\": 42}|validation_error|customerName: must be a string",
            "{\"amount\": 1, \"chain\": \"base\", \"description\": false}|validation_error|description: must be a string",
            "{\"amount\": 1, \"chain\": \"base\", \"customerName\": {\"a\": 1}}|validation_error|customerName: must be a string",
            // unknown fields are refused, named
            "{\"amount\": 1, \"chain\": \"base\", \"status\": \"SETTLED\"}|validation_error|status: unknown field",
            "{\"amount\": 1, \"chain\": \"base\", \"metadata\": {\"a\": {\"b\": 1}}}|validation_error|metadata: unknown field",
            // amount forms
            "{\"amount\": -1, \"chain\": \"base\"}|validation_error|amount: must be greater than 0",
            "{\"amount\": 0.0, \"chain\": \"base\"}|validation_error|amount: must be greater than 0",
            "{\"amount\": 1.0000001, \"chain\": \"base\"}|validation_error|amount: must have at most 6 decimal places",
            "{\"amount\": 15e-7, \"chain\": \"base\"}|validation_error|amount: must have at most 6 decimal places",
            "{\"amount\": 1e-999999999, \"chain\": \"base\"}|validation_error|amount: must have at most 6 decimal places",
            "{\"amount\": 1e10, \"chain\": \"base\"}|validation_error|amount: must not exceed 1000000000",
            "{\"amount\": 1e999999999, \"chain\": \"base\"}|validation_error|amount: must not exceed 1000000000",
            "{\"amount\": 123456789012345678901234567890.5, \"chain\": \"base\"}|validation_error|amount: must not exceed",
            "{\"amount\": null, \"chain\": \"base\"}|validation_error|amount: is required",
            // codes of their own
            "{\"amount\": 1, \"chain\": \"ethereum\"}|unsupported_chain|chain: must be one of base",
            "{\"amount\": 1, \"chain\": \"base\", \"currency\": \"EUR\"}|unsupported_currency|currency: only USDC is supported",
            // the first violation by field name answers: amount before chain before currency
            "{\"amount\": 0, \"chain\": \"ethereum\", \"currency\": \"EUR\"}|validation_error|amount: must be greater than 0",
            "{\"currency\": \"EUR\"}|validation_error|amount: is required",
            // lengths and formats
            "{\"amount\": 1, \"chain\": \"base\", \"customerEmail\": \"a@b\"}|validation_error|customerEmail: must be a valid email address",
            // JSON shape and syntax
            "[1, 2]|invalid_body|request body must be a JSON object",
            "\"x\"|invalid_body|request body must be a JSON object",
            "{\"amount\": 1,|invalid_json|request body is not valid JSON"})
    void refusesNamingTheField(String body, String code, String message) {
        refused(post(body), code, message);
    }

    @Test
    void tooLongTextIsNamedWithItsLimit() {
        refused(post("{\"amount\": 1, \"chain\": \"base\", \"customerName\": \"" + "x".repeat(201) + "\"}"), "validation_error",
                "customerName: must be at most 200 characters");
        refused(post("{\"amount\": 1, \"chain\": \"base\", \"description\": \"" + "x".repeat(1001) + "\"}"), "validation_error",
                "description: must be at most 1000 characters");
        // the limit applies to the trimmed text: surrounding blanks do not count
        post("{\"amount\": 1, \"chain\": \"base\", \"customerName\": \"  " + "x".repeat(200) + "  \"}").then().statusCode(201)
                .body("data.customerName", equalTo("x".repeat(200)));
    }

    @Test
    void anAbsentBodyIsRequired() {
        refused(given().header("x-api-key", key).contentType(ContentType.JSON).post("/v1/invoices"), "invalid_json",
                "request body is required");
        refused(post("null"), "invalid_json", "request body is required");
    }

    @Test
    void aRepeatedKeyIsNamed() {
        refused(post("{\"amount\": 1, \"chain\": \"base\", \"amount\": 1000}"), "invalid_json",
                "request body repeats the key \"amount\"");
    }

    @Test
    void tooDeepNestingIsRefusedBeforeItIsRead() {
        // a nested value where text is expected fails at its first bracket; deeper than the parser's limit anywhere else
        refused(post("{\"amount\": 1, \"chain\": \"base\", \"customerName\": " + "[".repeat(40) + "]".repeat(40) + "}"),
                "validation_error", "customerName: must be a string");
        // an unknown field is read whole before it is refused: nested past the parser's limit, the body is refused
        for (String body : new String[] {"{\"amount\": 1, \"chain\": \"base\", \"metadata\": " + "{\"a\":".repeat(40) + "1"
                + "}".repeat(40) + "}", "[".repeat(40) + "]".repeat(40)}) {
            Response r = post(body);
            assertThat(r.statusCode()).as(r.asString()).isEqualTo(400);
            assertThat(r.<Boolean>path("success")).isFalse();
            assertThat(r.<String>path("error.code")).isIn("invalid_json", "invalid_body");
        }
    }

    @Test
    void theDeadlineWindowIsChecked() {
        refused(post("{\"amount\": 1, \"chain\": \"base\", \"expiresAt\": \"" + Instant.now().minusSeconds(5) + "\"}"),
                "validation_error", "expiresAt: must be at least");
        refused(post("{\"amount\": 1, \"chain\": \"base\", \"expiresAt\": \"" + Instant.now().plus(Duration.ofDays(31)) + "\"}"),
                "validation_error", "expiresAt: must be at most 30 days in the future");
        refused(post("{\"amount\": 1, \"chain\": \"base\", \"expiresAt\": \"2030-01-01T00:00:00\"}"), "validation_error",
                "expiresAt: must be an ISO 8601 timestamp with offset");
        refused(post("{\"amount\": 1, \"chain\": \"base\", \"expiresAt\": 1700000000}"), "validation_error", "expiresAt: must be an ISO 8601 timestamp string");
    }

    @Test
    void amountsAreTheExactDecimalSent() {
        // 999999999.999999 has no exact double: read through one it would not be 999999999999999 atomic units
        JsonPath p = TestSupport.create(key, "{\"amount\": 999999999.999999, \"chain\": \"base\"}");
        assertThat(p.getString("data.paymentDetails.payableAtomic")).isEqualTo("999999999999999");
        JsonPath e = TestSupport.create(key, "{\"amount\": 1.5e2, \"chain\": \"solana\", \"currency\": \" usdc \"}");
        assertThat(e.getString("data.paymentDetails.payableAtomic")).isEqualTo("150000000");
        assertThat(e.getString("data.currency")).isEqualTo("USDC");
    }

    @Test
    void listParametersAreTyped() {
        given().header("x-api-key", key).queryParam("limit", "abc").get("/v1/invoices").then().statusCode(400)
                .body("error.code", equalTo("validation_error")).body("error.message", equalTo("limit: must be a whole number"));
        given().header("x-api-key", key).queryParam("limit", "0").get("/v1/invoices").then().statusCode(400)
                .body("error.message", equalTo("limit: must be an integer from 1 to 100"));
        given().header("x-api-key", key).queryParam("limit", "99999999999").get("/v1/invoices").then().statusCode(400)
                .body("error.message", startsWith("limit: "));
        given().header("x-api-key", key).queryParam("status", "PAID").get("/v1/invoices").then().statusCode(400)
                .body("error.code", equalTo("validation_error")).body("error.message", equalTo("status: must be PENDING, SETTLED or EXPIRED"));
        given().header("x-api-key", key).queryParam("status", "pending").queryParam("limit", " 5 ").get("/v1/invoices")
                .then().statusCode(200);
        given().header("x-admin-key", "test-admin-key-0123456789").queryParam("limit", "abc").get("/admin/transfers/unmatched")
                .then().statusCode(400).body("error.message", equalTo("limit: must be a whole number"));
        given().header("x-admin-key", "test-admin-key-0123456789").queryParam("limit", "1001").get("/admin/transfers/unmatched")
                .then().statusCode(400).body("error.message", equalTo("limit: must be an integer from 1 to 1000"));
    }

    @Test
    void x402BodiesAreCheckedBeforeAnyPaymentNamingTheJsonField() {
        // the settle body's field is invoice_id on the wire (invoiceId in Java)
        given().contentType(ContentType.JSON).body("{\"invoice_id\": \"123\"}").post("/api/x402/settle").then().statusCode(400)
                .body("error.code", equalTo("validation_error")).body("error.message", equalTo("invoice_id: must be a UUID"));
        given().contentType(ContentType.JSON).body("{}").post("/api/x402/settle").then().statusCode(400)
                .body("error.message", equalTo("invoice_id: is required"));
        given().contentType(ContentType.JSON).post("/api/x402/settle").then().statusCode(400)
                .body("error.message", equalTo("invoice_id: is required"));
        given().contentType(ContentType.JSON).body("{\"invoice_id\": 5}").post("/api/x402/settle").then().statusCode(400)
                .body("error.message", equalTo("invoice_id: must be a string"));
        given().contentType(ContentType.JSON).body("{\"nope\": 1}").post("/api/x402/invoice").then().statusCode(400)
                .body("error.code", equalTo("validation_error")).body("error.message", equalTo("nope: unknown field"));
        given().contentType(ContentType.JSON).body("{\"amount\": \"0.01\"}").post("/api/x402/invoice").then().statusCode(400)
                .body("error.message", equalTo("amount: must be a number"));
        given().contentType(ContentType.JSON).body("{\"currency\": \"EUR\"}").post("/api/x402/invoice").then().statusCode(400)
                .body("error.code", equalTo("unsupported_currency"));
        given().contentType(ContentType.JSON).body("{\"email\": \"" + "a".repeat(64) + "@" + ("b".repeat(60) + ".").repeat(4) + "co\"}").post("/api/x402/invoice")
                .then().statusCode(400).body("error.message", equalTo("email: must be at most 254 characters"));
    }

    @Test
    void anX402InvoiceWithoutABodyAsksForTheDefaultsAndOtherMediaTypesAreRefusedBeforeAnyPayment() {
        // an x402 client may POST nothing at all: the challenge for an invoice of the default amount
        // (java.net.http: RestAssured would add a content type of its own)
        java.net.http.HttpResponse<String> bare;
        try {
            bare = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                            java.net.URI.create(io.restassured.RestAssured.baseURI + ":" + io.restassured.RestAssured.port + "/api/x402/invoice"))
                    .POST(java.net.http.HttpRequest.BodyPublishers.noBody()).build(), java.net.http.HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException | InterruptedException e) {
            throw new AssertionError(e);
        }
        assertThat(bare.request().headers().firstValue("content-type")).isEmpty();
        assertThat(bare.statusCode()).as(bare.body()).isEqualTo(402);
        assertThat(bare.body()).contains("\"errorCode\":\"payment_required\"");
        given().contentType(ContentType.JSON).post("/api/x402/invoice").then().statusCode(402);
        given().contentType(ContentType.TEXT).body("{}").post("/api/x402/invoice").then().statusCode(415)
                .body("error.code", equalTo("unsupported_media_type"));
    }
}
