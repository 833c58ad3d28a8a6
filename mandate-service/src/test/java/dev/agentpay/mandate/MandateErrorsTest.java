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
import dev.agentpay.mandate.support.TestSigner;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The sign error table exactly, and the decided errors of create, get, start, complete and dispute. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class MandateErrorsTest {

    static TestPartner partner;

    // not @BeforeAll: RestAssured points at the application only once a test runs
    @BeforeEach
    void partner() {
        if (partner == null) {
            partner = Api.newPartner("Errors");
        }
    }

    private void signError(TestMandate m, Object body, int status, String code) {
        partner.as().contentType(ContentType.JSON).body(body).post("/v1/mandates/" + m.id() + "/sign").then()
                .statusCode(status).body("success", equalTo(false)).body("error.code", equalTo(code));
    }

    @Test
    void signErrorTable() {
        TestMandate m = Api.create(partner);
        signError(m, Map.of("signer", "witness", "signature", m.signature()), 400, "invalid_signer");
        signError(m, Map.of("signature", m.signature()), 400, "invalid_signer");
        signError(m, Map.of("signer", 7, "signature", m.signature()), 400, "invalid_signer");
        signError(m, Map.of("signer", "proposer"), 400, "missing_signature");
        signError(m, Map.of("signer", "proposer", "signature", ""), 400, "missing_signature");
        signError(m, Map.of("signer", "proposer", "signature", TestSigner.tamper(m.signature())), 403, "invalid_signature");
        signError(m, Map.of("signer", "proposer", "signature", m.signature().toUpperCase()), 403, "invalid_signature");
        signError(m, Map.of("signer", "proposer", "signature", "zz"), 403, "invalid_signature");
        // signed with another partner's secret
        TestPartner other = Api.newPartner("OtherSecret");
        signError(m, Map.of("signer", "proposer", "signature", TestSigner.hmac(m.canonical(), other.signingSecret())),
                403, "invalid_signature");
        partner.as().contentType(ContentType.JSON).body(Map.of("signer", "proposer", "signature", m.signature()))
                .post("/v1/mandates/mnd_00000000-0000-0000-0000-000000000000/sign").then().statusCode(404)
                .body("error.code", equalTo("mandate_not_found"));
        signError(m, Map.of("signer", "counterparty", "signature", m.signature()), 409, "invalid_transition");
        // nothing changed by any refusal
        assertThat(Api.get(m).jsonPath().getString("data.state")).isEqualTo("proposed");
        assertThat(Api.get(m).jsonPath().getList("data.transitions")).hasSize(1);
    }

    private void createError(Map<String, Object> body, String messagePrefix) {
        partner.as().contentType(ContentType.JSON).body(body).post("/v1/mandates").then().statusCode(400)
                .body("success", equalTo(false))
                .body("error.code", equalTo("validation_error"))
                .body("error.message", startsWith(messagePrefix));
    }

    private Map<String, Object> valid() {
        return new HashMap<>(Api.createBody("p", "c", Api.inDays(3)));
    }

    @Test
    void createValidationNamesTheField() {
        for (String f : List.of("proposer", "counterparty", "scope", "terms", "expiry")) {
            Map<String, Object> b = valid();
            b.remove(f);
            createError(b, f + ": is required");
        }
        for (String f : List.of("proposer", "counterparty", "scope")) {
            Map<String, Object> b = valid();
            b.put(f, 12);
            createError(b, f + ": must be a string");
            b.put(f, "  ");
            createError(b, f + ": must not be blank");
        }
        Map<String, Object> b = valid();
        b.put("terms", List.of(1, 2));
        createError(b, "terms: must be a JSON object");
        b = valid();
        b.put("terms", "amount=1");
        createError(b, "terms: must be a JSON object");
        b = valid();
        b.put("terms", Map.of("__proto__", 1));
        createError(b, "terms");
        b = valid();
        b.put("context", "chat");
        createError(b, "context: must be a JSON object");
        b = valid();
        b.put("expiry", "next tuesday");
        createError(b, "expiry: must be an ISO 8601 timestamp");
        b = valid();
        b.put("expiry", "2030-01-01T00:00:00");
        createError(b, "expiry: must be an ISO 8601 timestamp");
        b = valid();
        b.put("expiry", Api.iso(Instant.now().minusSeconds(60)));
        createError(b, "expiry: must be in the future");
        b = valid();
        b.put("expiry", "2200-01-01T00:00:00.000Z");
        createError(b, "expiry: must be at most");
        b = valid();
        b.put("proposer", "x".repeat(257));
        createError(b, "proposer: must be at most 256 characters");
        b = valid();
        b.put("expires_at", Api.inDays(3));
        createError(b, "expires_at: unknown field");
    }

    @Test
    void createRefusesBadBodies() {
        partner.as().contentType(ContentType.JSON).body("{\"proposer\":").post("/v1/mandates").then().statusCode(400)
                .body("error.code", equalTo("invalid_json"));
        partner.as().contentType(ContentType.JSON).body("[1,2]").post("/v1/mandates").then().statusCode(400)
                .body("error.code", equalTo("invalid_body"));
        partner.as().contentType(ContentType.JSON).body("").post("/v1/mandates").then().statusCode(400)
                .body("error.code", equalTo("invalid_json"));
        partner.as().contentType(ContentType.JSON)
                .body("{\"proposer\":\"a\",\"proposer\":\"b\",\"counterparty\":\"c\",\"scope\":\"s\",\"terms\":{},"
                        + "\"expiry\":\"" + Api.inDays(1) + "\"}")
                .post("/v1/mandates").then().statusCode(400).body("error.code", equalTo("invalid_json"));
        partner.as().contentType(ContentType.TEXT).body("proposer=a").post("/v1/mandates").then().statusCode(415)
                .body("success", equalTo(false)).body("error.code", equalTo("unsupported_media_type"));
        partner.as().contentType("application/xml").body("<a/>").post("/v1/mandates").then().statusCode(415);
        Map<String, Object> big = valid();
        big.put("scope", "s".repeat(9000));
        big.put("terms", Map.of("blob", "x".repeat(70_000)));
        partner.as().contentType(ContentType.JSON).body(big).post("/v1/mandates").then().statusCode(413)
                .body("success", equalTo(false)).body("error.code", equalTo("payload_too_large"));
        given().contentType(ContentType.JSON).body(valid()).post("/v1/mandates").then().statusCode(401)
                .body("error.code", equalTo("unauthorized"));
        given().header("x-api-key", "sk_" + "0".repeat(64)).contentType(ContentType.JSON).body(valid())
                .post("/v1/mandates").then().statusCode(401);
    }

    /**
     * A lone UTF-16 surrogate (as a JSON escape, or as the invalid UTF-8 bytes some encoders emit for
     * one) cannot be stored or signed as text: it is a named 400, not a 500, and creates nothing.
     */
    @Test
    void createRefusesIllFormedUnicode() {
        String head = "{\"counterparty\":\"c\",\"scope\":\"s\",\"terms\":{\"a\":1},\"expiry\":\"" + Api.inDays(1)
                + "\",\"proposer\":\"";
        partner.as().contentType(ContentType.JSON).body(head + "ab\\uDB53cd\"}").post("/v1/mandates").then()
                .statusCode(400).body("error.code", equalTo("validation_error"))
                .body("error.message", startsWith("proposer: "));
        partner.as().contentType(ContentType.JSON).body(head + "ab\\uDC00\"}").post("/v1/mandates").then()
                .statusCode(400).body("error.code", equalTo("validation_error"));
        // NUL cannot be stored in PostgreSQL text either
        partner.as().contentType(ContentType.JSON).body(head + "a\\u0000b\"}").post("/v1/mandates").then()
                .statusCode(400).body("error.code", equalTo("validation_error")).body("error.message", startsWith("proposer: "));
        byte[] prefix = (head + "ab").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] raw = java.util.Arrays.copyOf(prefix, prefix.length + 5);
        raw[prefix.length] = (byte) 0xED; // U+DB53 encoded as if it were a scalar value (invalid UTF-8)
        raw[prefix.length + 1] = (byte) 0xAD;
        raw[prefix.length + 2] = (byte) 0x93;
        raw[prefix.length + 3] = '"';
        raw[prefix.length + 4] = '}';
        // invalid UTF-8 decodes to U+FFFD replacement characters: accepted, and stored as what was read
        String id = partner.as().contentType(ContentType.JSON).body(raw).post("/v1/mandates").then().statusCode(201)
                .extract().path("data.mandate_id");
        String stored = partner.as().get("/v1/mandates/" + id).then().statusCode(200).extract().path("data.proposer_agent_id");
        assertThat(stored).startsWith("ab\uFFFD").doesNotContain("?");
        // the same unpaired surrogate inside terms is kept escaped, as JSON.stringify writes it (canonical vectors)
        partner.as().contentType(ContentType.JSON).body(head.replace("{\"a\":1}", "{\"a\":\"\\uDB53\ua49b\"}") + "p\"}")
                .post("/v1/mandates").then().statusCode(201);
        partner.as().contentType(ContentType.JSON).body(head + "p\",\"context\":{\"note\":\"\\uDFFF\"}}")
                .post("/v1/mandates").then().statusCode(400).body("error.message", startsWith("context.note: "));
        // a well-formed pair is fine
        partner.as().contentType(ContentType.JSON).body(head + "\\uD83D\\uDE00\"}").post("/v1/mandates").then()
                .statusCode(201);
    }

    /** Party names follow a character policy: NFC, no controls, no bidi or zero-width characters (README). */
    @Test
    void partyNamesWithInvisibleOrUnnormalizedCharactersAreRefused() {
        String head = "{\"scope\":\"s\",\"terms\":{\"a\":1},\"expiry\":\"" + Api.inDays(1) + "\",";
        for (String field : List.of("proposer", "counterparty")) {
            String other = field.equals("proposer") ? "counterparty" : "proposer";
            for (String name : List.of("pay\\u202eeulav", "ab\\u200bc", "ab\\u2066c", "a\\u0007b", "a\\nb", "a\\u0085b",
                    "a\\u2028b", "\\ufeffab", "e\\u0301te")) {
                partner.as().contentType(ContentType.JSON).body(head + "\"" + other + "\":\"ok\",\"" + field + "\":\"" + name + "\"}")
                        .post("/v1/mandates").then().statusCode(400).body("error.code", equalTo("validation_error"))
                        .body("error.message", startsWith(field + ": "));
            }
        }
        // composed accents, other scripts and emoji are names like any other
        String id = partner.as().contentType(ContentType.JSON)
                .body(head + "\"proposer\":\"Ren\u00e9e \u5c71\u7530 \ud83d\ude00\",\"counterparty\":\"\u05e9\u05dc\u05d5\u05dd\"}")
                .post("/v1/mandates").then().statusCode(201).extract().path("data.mandate_id");
        given().get("/v1/public/mandates/" + id).then().statusCode(200);
    }

    /**
     * Numbers in terms keep their value through the canonical encoding (JavaScript doubles) or the
     * request is refused naming the number; more than 100 characters is refused by the parser; a key
     * repeated at any depth is refused.
     */
    @Test
    void termsNumbersThatWouldChangeAndDuplicateKeysAreRefused() {
        String head = "{\"proposer\":\"p\",\"counterparty\":\"c\",\"scope\":\"s\",\"expiry\":\"" + Api.inDays(1) + "\",\"terms\":";
        for (String terms : List.of("{\"a\":1e400}", "{\"a\":-1e400}", "{\"a\":1e-400}", "{\"a\":{\"b\":[1,123456789012345678901234567890]}}",
                "{\"a\":9007199254740993}", "{\"a\":0.1000000000000000055511151231257827}")) {
            partner.as().contentType(ContentType.JSON).body(head + terms + "}").post("/v1/mandates").then().statusCode(400)
                    .body("error.code", equalTo("validation_error")).body("error.message", startsWith("terms.a"));
        }
        partner.as().contentType(ContentType.JSON).body(head + "{\"a\":1" + "0".repeat(100) + "}}").post("/v1/mandates").then()
                .statusCode(400).body("error.code", equalTo("invalid_json")).body("error.message", org.hamcrest.Matchers.containsString("100"));
        for (String terms : List.of("{\"amount\":1,\"amount\":1000}", "{\"x\":{\"amount\":1,\"amount\":1000}}")) {
            partner.as().contentType(ContentType.JSON).body(head + terms + "}").post("/v1/mandates").then().statusCode(400)
                    .body("error.code", equalTo("invalid_json")).body("error.message", org.hamcrest.Matchers.containsString("\"amount\""));
        }
        partner.as().contentType(ContentType.JSON).body(head + "{\"a\":1},\"context\":{\"k\":1,\"k\":2}}").post("/v1/mandates").then()
                .statusCode(400).body("error.code", equalTo("invalid_json"));
        // values that print differently but mean the same number are accepted, and stored as JavaScript prints them
        String id = partner.as().contentType(ContentType.JSON).body(head + "{\"a\":1.50,\"b\":1e2,\"c\":0.1,\"d\":-0,\"e\":1E21,\"f\":1" + "0".repeat(99) + "}}")
                .post("/v1/mandates").then().statusCode(201).extract().path("data.mandate_id");
        String got = partner.as().get("/v1/mandates/" + id).then().statusCode(200).extract().asString();
        assertThat(got).contains("\"terms\":{\"a\":1.5,\"b\":100,\"c\":0.1,\"d\":0,\"e\":1e+21,\"f\":1e+99}");
    }

    @Test
    void unknownMandateIs404Everywhere() {
        String id = "mnd_00000000-0000-0000-0000-000000000000";
        partner.as().get("/v1/mandates/" + id).then().statusCode(404).body("error.code", equalTo("mandate_not_found"));
        partner.as().get("/v1/mandates/not-even-an-id").then().statusCode(404).body("error.code", equalTo("mandate_not_found"));
        // NUL cannot reach a query as text: refused before any resource runs
        for (String url : List.of("/v1/mandates/mnd_%00x", "/v1/public/mandates/%00", "/v1/receipts/x%00",
                "/v1/mandates/mnd_1?x=%00")) {
            partner.as().urlEncodingEnabled(false).get(url).then().statusCode(400)
                    .body("success", equalTo(false)).body("error.code", equalTo("invalid_url"));
        }
        for (String odd : List.of("mnd_%2500", "mnd_%ED%A0%80", "%F0%9F%98%80")) {
            partner.as().urlEncodingEnabled(false).get("/v1/mandates/" + odd).then().statusCode(404)
                    .body("error.code", equalTo("mandate_not_found"));
            given().urlEncodingEnabled(false).get("/v1/public/mandates/" + odd).then().statusCode(404);
            partner.as().urlEncodingEnabled(false).get("/v1/receipts/" + odd).then().statusCode(404);
        }
        partner.as().post("/v1/mandates/" + id + "/complete").then().statusCode(404).body("error.code", equalTo("mandate_not_found"));
        partner.as().post("/v1/mandates/" + id + "/start").then().statusCode(404).body("error.code", equalTo("mandate_not_found"));
        partner.as().contentType(ContentType.JSON).body(Map.of("reason", "x")).post("/v1/mandates/" + id + "/dispute")
                .then().statusCode(404).body("error.code", equalTo("mandate_not_found"));
    }

    @Test
    void completeAndDisputeBodies() {
        TestMandate m = Api.signedByBoth(partner);
        assertThat(Api.post(m, "dispute", Map.of()).<String>path("error.message")).isEqualTo("reason: is required");
        assertThat(Api.post(m, "dispute", Map.of("reason", " ")).<String>path("error.message"))
                .isEqualTo("reason: must not be blank");
        assertThat(Api.post(m, "dispute", Map.of("reason", 5)).<String>path("error.message"))
                .isEqualTo("reason: must be a string");
        assertThat(Api.post(m, "dispute", Map.of("reason", "r".repeat(4001))).statusCode()).isEqualTo(400);
        assertThat(Api.post(m, "complete", Map.of("triggered_by", 3)).<String>path("error.message"))
                .isEqualTo("triggered_by: must be a string");
        assertThat(Api.post(m, "complete", Map.of("who", "me")).<String>path("error.message"))
                .isEqualTo("who: unknown field");
        m.owner().as().contentType(ContentType.TEXT).body("done").post("/v1/mandates/" + m.id() + "/complete").then()
                .statusCode(415);
        assertThat(Api.get(m).jsonPath().getString("data.state")).isEqualTo("signed_by_both");
        // an empty body is a complete without triggered_by
        m.owner().as().post("/v1/mandates/" + m.id() + "/complete").then().statusCode(200)
                .body("data.status", equalTo("completed"));
    }
}
