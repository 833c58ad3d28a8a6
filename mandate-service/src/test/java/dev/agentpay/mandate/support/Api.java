package dev.agentpay.mandate.support;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Map;

/** HTTP helpers shared by the tests: partners through the admin API, mandates through the partner API. */
public final class Api {

    public static final String ADMIN_KEY = "test-admin-key";
    public static final String TERMS = "{\"amount\":100,\"currency\":\"USDC\"}";

    private Api() {
    }

    /** A partner issued through the admin API, with the key and secret answered once. */
    public record TestPartner(String id, String apiKey, String signingSecret) {

        public RequestSpecification as() {
            return given().header("x-api-key", apiKey);
        }
    }

    /** A created mandate with the fields a signer needs. */
    public record TestMandate(String id, String proposer, String counterparty, String scope, String expiresAtIso,
            String canonicalTerms, TestPartner owner) {

        public String canonical() {
            return TestSigner.canonical(counterparty, expiresAtIso, id, proposer, scope, canonicalTerms);
        }

        public String signature() {
            return TestSigner.hmac(canonical(), owner.signingSecret());
        }
    }

    public static RequestSpecification admin() {
        return given().header("x-admin-key", ADMIN_KEY);
    }

    /** Issues a partner and waits (bounded) until its key is accepted by the registry (via Kafka). */
    public static TestPartner newPartner(String name) {
        ExtractableResponse<Response> r = admin().contentType(ContentType.JSON).body(Map.of("name", name))
                .post("/admin/partners").then().statusCode(201).extract();
        TestPartner p = new TestPartner(r.path("data.id"), r.path("data.api_key"), r.path("data.signing_secret"));
        awaitKey(p.apiKey(), true);
        return p;
    }

    /** Waits until the key is (or is no longer) accepted on the mandate API. */
    public static void awaitKey(String apiKey, boolean accepted) {
        await("key " + (accepted ? "accepted" : "refused")).atMost(Duration.ofSeconds(30)).until(() -> {
            int status = given().header("x-api-key", apiKey).get("/v1/mandates/mnd_probe").statusCode();
            return accepted ? status == 404 : status == 401;
        });
    }

    public static String iso(Instant instant) {
        return new DateTimeFormatterBuilder().appendInstant(3).toFormatter().format(instant);
    }

    public static String inDays(int days) {
        return iso(Instant.now().plus(days, ChronoUnit.DAYS).truncatedTo(ChronoUnit.MILLIS));
    }

    public static Map<String, Object> createBody(String proposer, String counterparty, String expiry) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("proposer", proposer);
        body.put("counterparty", counterparty);
        body.put("scope", "Write the quarterly report");
        body.put("terms", Map.of("currency", "USDC", "amount", 100));
        body.put("expiry", expiry);
        body.put("context", Map.of("source", "test", "chat_id", "c-1"));
        return body;
    }

    /** Creates a mandate expiring at {@code expiry} and returns what a signer needs. */
    public static TestMandate create(TestPartner p, String expiry) {
        String proposer = "agent-p-" + System.nanoTime();
        String counterparty = "agent-c-" + System.nanoTime();
        String id = p.as().contentType(ContentType.JSON).body(createBody(proposer, counterparty, expiry))
                .post("/v1/mandates").then().statusCode(201).extract().path("data.mandate_id");
        assertThat(id).startsWith("mnd_");
        return new TestMandate(id, proposer, counterparty, "Write the quarterly report", expiry, TERMS, p);
    }

    public static TestMandate create(TestPartner p) {
        return create(p, inDays(30));
    }

    public static ExtractableResponse<Response> sign(TestMandate m, String signer, String signature) {
        return m.owner().as().contentType(ContentType.JSON).body(Map.of("signer", signer, "signature", signature))
                .post("/v1/mandates/" + m.id() + "/sign").then().extract();
    }

    /** Creates a mandate signed by both parties. */
    public static TestMandate signedByBoth(TestPartner p) {
        TestMandate m = create(p);
        assertThat(sign(m, "proposer", m.signature()).statusCode()).isEqualTo(200);
        assertThat(sign(m, "counterparty", m.signature()).statusCode()).isEqualTo(200);
        return m;
    }

    public static ExtractableResponse<Response> post(TestMandate m, String action, Object body) {
        RequestSpecification spec = m.owner().as();
        if (body != null) {
            spec = spec.contentType(ContentType.JSON).body(body);
        }
        return spec.post("/v1/mandates/" + m.id() + "/" + action).then().extract();
    }

    public static ExtractableResponse<Response> get(TestMandate m) {
        return m.owner().as().get("/v1/mandates/" + m.id()).then().statusCode(200).extract();
    }
}
