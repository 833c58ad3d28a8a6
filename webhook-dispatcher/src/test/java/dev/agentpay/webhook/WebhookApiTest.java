package dev.agentpay.webhook;

import static dev.agentpay.webhook.support.Api.as;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.webhook.support.Api;
import dev.agentpay.webhook.support.TestPartners;
import dev.agentpay.webhook.support.TestPartners.TestPartner;
import dev.agentpay.webhook.support.TestReceiver;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The subscription API: shapes, validation, ownership and secret handling. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class WebhookApiTest {

    static final String SECRET = "s3cr3t-Webhook-Key-0123456789";

    @Inject
    PartnerRegistry registry;

    final TestReceiver receiver = TestReceiver.shared();

    @Test
    void createAnswers201WithoutTheSecret() {
        TestPartner p = TestPartners.register(registry);
        String body = as(p).body(Map.of("url", receiver.url("/api-create"), "events",
                        List.of("mandate.proposed", "invoice.settled", "mandate.proposed"), "secret", SECRET,
                        "description", "orders"))
                .post("/v1/webhooks").then().statusCode(201)
                .header("Location", containsString("/v1/webhooks/"))
                .body("success", equalTo(true))
                .body("data.id", notNullValue())
                .body("data.url", equalTo(receiver.url("/api-create")))
                .body("data.events", equalTo(List.of("mandate.proposed", "invoice.settled")))
                .body("data.status", equalTo("active"))
                .body("data.description", equalTo("orders"))
                .body("data.secret", nullValue())
                // only the answer to the request that gave the secret carries its whsec_ form
                .body("data.standardWebhooksSecret", equalTo("whsec_" + java.util.Base64.getEncoder()
                        .encodeToString(SECRET.getBytes(java.nio.charset.StandardCharsets.UTF_8))))
                .extract().asString();
        assertThat(body).doesNotContain(SECRET);
        String id = given().header("x-api-key", p.apiKey()).get("/v1/webhooks").then().statusCode(200)
                .body("data", hasSize(1)).extract().path("data[0].id");
        String one = as(p).get("/v1/webhooks/" + id).then().statusCode(200).body("data.id", equalTo(id)).extract().asString();
        assertThat(one).doesNotContain(SECRET).doesNotContain("whsec_").doesNotContain("standardWebhooksSecret");
    }

    @Test
    void missingOrInvalidKeyIs401() {
        given().contentType(ContentType.JSON).body(Map.of("url", receiver.url("/x"), "events", List.of("mandate.proposed"),
                "secret", SECRET)).post("/v1/webhooks").then().statusCode(401).body("error.code", equalTo("unauthorized"));
        given().header("x-api-key", "sk_" + "0".repeat(64)).get("/v1/webhooks").then().statusCode(401);
    }

    @Test
    void badInputIs400AndStoresNothing() {
        TestPartner p = TestPartners.register(registry);
        String url = receiver.url("/api-bad");
        List<String> ev = List.of("mandate.proposed");
        expect400(p, Map.of("url", url, "events", List.of("mandate.exploded"), "secret", SECRET), "unknown_event_type");
        expect400(p, Map.of("url", url, "events", List.of(), "secret", SECRET), "validation_error");
        expect400(p, Map.of("url", url, "secret", SECRET), "validation_error");
        expect400(p, Map.of("url", "not a url", "events", ev, "secret", SECRET), "invalid_url");
        expect400(p, Map.of("url", "ftp://example.com/x", "events", ev, "secret", SECRET), "invalid_url");
        expect400(p, Map.of("url", "https://user:pw@example.com/x", "events", ev, "secret", SECRET), "invalid_url");
        expect400(p, Map.of("url", "https:///nohost", "events", ev, "secret", SECRET), "invalid_url");
        expect400(p, Map.of("url", "https://example.com/x#frag", "events", ev, "secret", SECRET), "invalid_url");
        expect400(p, Map.of("events", ev, "secret", SECRET), "validation_error");
        expect400(p, Map.of("url", url, "events", ev, "secret", "short-secret-123"), "weak_secret");
        expect400(p, Map.of("url", url, "events", ev, "secret", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"), "weak_secret");
        expect400(p, Map.of("url", url, "events", ev, "secret", "with spaces is not accepted 12345"), "weak_secret");
        expect400(p, Map.of("url", url, "events", ev, "secret", "whsec_c2hvcnQ="), "weak_secret");
        expect400(p, Map.of("url", url, "events", ev, "secret", "whsec_!!!not-base64-at-all-really!!!"), "weak_secret");
        expect400(p, Map.of("url", url, "events", ev), "validation_error");
        as(p).body("{not json").post("/v1/webhooks").then().statusCode(400).body("success", equalTo(false));
        // an unpaired surrogate escape could not be stored as text: a 400 naming the field
        as(p).body("{\"url\":\"" + url + "\",\"events\":[\"mandate.proposed\"],\"secret\":\"" + SECRET
                + "\",\"description\":\"x\\udb53\\ua49b\"}").post("/v1/webhooks").then().statusCode(400)
                .body("error.code", equalTo("validation_error")).body("error.message", startsWith("description: must be well-formed"));
        as(p).body(Map.of("url", url, "events", "mandate.proposed", "secret", SECRET)).post("/v1/webhooks")
                .then().statusCode(400).body("success", equalTo(false));
        // a key repeated in one object (which url would a reviewer read?) is refused, naming the key
        as(p).body("{\"url\":\"" + url + "\",\"events\":[\"mandate.proposed\"],\"secret\":\"" + SECRET
                + "\",\"url\":\"https://elsewhere.example.com/x\"}").post("/v1/webhooks").then().statusCode(400)
                .body("error.code", equalTo("invalid_json")).body("error.message", org.hamcrest.Matchers.containsString("\"url\""));
        // the shape rules of the typed bodies answer as the hand checks did, naming the field
        as(p).body(Map.of("url", url, "events", List.of(), "secret", SECRET)).post("/v1/webhooks").then().statusCode(400)
                .body("error.code", equalTo("validation_error")).body("error.message", equalTo("events: at least one event type required"));
        as(p).body(Map.of("url", " ", "events", ev, "secret", SECRET)).post("/v1/webhooks").then().statusCode(400)
                .body("error.code", equalTo("validation_error")).body("error.message", equalTo("url: required"));
        as(p).body(Map.of("url", url, "events", ev, "secret", SECRET, "description", "d".repeat(257))).post("/v1/webhooks")
                .then().statusCode(400).body("error.code", equalTo("validation_error"))
                .body("error.message", equalTo("description: longer than 256 characters"));
        as(p).contentType(ContentType.JSON).post("/v1/webhooks").then().statusCode(400)
                .body("error.code", equalTo("invalid_json")).body("error.message", equalTo("request body is required"));
        // the platform's binding rules (commons.limits.StrictJson): unknown fields and wrong JSON types are refused, named
        as(p).body(Map.of("url", url, "events", ev, "secret", SECRET, "filter", "x")).post("/v1/webhooks").then().statusCode(400)
                .body("error.code", equalTo("validation_error")).body("error.message", equalTo("filter: unknown field"));
        as(p).body(Map.of("url", 42, "events", ev, "secret", SECRET)).post("/v1/webhooks").then().statusCode(400)
                .body("error.code", equalTo("validation_error")).body("error.message", equalTo("url: must be a string"));
        as(p).get("/v1/webhooks").then().statusCode(200).body("data", hasSize(0));
    }

    private static void expect400(TestPartner p, Map<String, ?> body, String code) {
        as(p).body(body).post("/v1/webhooks").then().statusCode(400)
                .body("success", equalTo(false)).body("error.code", equalTo(code)).body("error.message", notNullValue());
    }

    @Test
    void whsecSecretsAreAccepted() {
        TestPartner p = TestPartners.register(registry);
        as(p).body(Map.of("url", receiver.url("/api-whsec"), "events", List.of("mandate.proposed"),
                        "secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"))
                .post("/v1/webhooks").then().statusCode(201);
    }

    @Test
    void anotherPartnersSubscriptionIsInvisible() {
        TestPartner owner = TestPartners.register(registry);
        TestPartner other = TestPartners.register(registry);
        String id = Api.subscribe(owner, receiver.url("/api-own"), List.of("mandate.proposed"), SECRET);
        as(other).get("/v1/webhooks/" + id).then().statusCode(404).body("error.code", equalTo("webhook_not_found"));
        as(other).body(Map.of("events", List.of("mandate.completed"))).patch("/v1/webhooks/" + id).then().statusCode(404);
        as(other).post("/v1/webhooks/" + id + "/disable").then().statusCode(404);
        as(other).delete("/v1/webhooks/" + id).then().statusCode(404);
        as(other).get("/v1/webhooks/" + id + "/deliveries").then().statusCode(404);
        as(other).get("/v1/webhooks").then().statusCode(200).body("data", hasSize(0));
        as(owner).get("/v1/webhooks/" + id).then().statusCode(200).body("data.events", equalTo(List.of("mandate.proposed")));
        as(owner).get("/v1/webhooks/not-a-uuid").then().statusCode(404);
    }

    @Test
    void updateDisableEnableDelete() {
        TestPartner p = TestPartners.register(registry);
        String id = Api.subscribe(p, receiver.url("/api-upd"), List.of("mandate.proposed"), SECRET);
        as(p).body(Map.of("events", List.of("mandate.completed", "disco.benchmark.published"), "url", receiver.url("/api-upd2")))
                .patch("/v1/webhooks/" + id).then().statusCode(200)
                .body("data.events", equalTo(List.of("mandate.completed", "disco.benchmark.published")))
                .body("data.url", equalTo(receiver.url("/api-upd2")));
        as(p).body(Map.of("events", List.of("nope"))).patch("/v1/webhooks/" + id).then().statusCode(400)
                .body("error.code", equalTo("unknown_event_type"));
        as(p).body(Map.of("secret", SECRET + "x")).patch("/v1/webhooks/" + id).then().statusCode(400)
                .body("error.code", equalTo("validation_error")).body("error.message", equalTo(
                        "secret: change it with POST /v1/webhooks/{id}/rotate-secret (keeps the old one valid for an overlap)"));
        as(p).body(Map.of("events", List.of())).patch("/v1/webhooks/" + id).then().statusCode(400)
                .body("error.message", equalTo("events: at least one event type required"));
        as(p).body(Map.of()).patch("/v1/webhooks/" + id).then().statusCode(400)
                .body("error.message", equalTo("nothing to update: send url, events or description"));
        as(p).post("/v1/webhooks/" + id + "/disable").then().statusCode(200)
                .body("data.status", equalTo("disabled")).body("data.disabledReason", equalTo("manual"))
                .body("data.disabledAt", notNullValue());
        as(p).post("/v1/webhooks/" + id + "/enable").then().statusCode(200)
                .body("data.status", equalTo("active")).body("data.disabledReason", nullValue());
        as(p).delete("/v1/webhooks/" + id).then().statusCode(204);
        as(p).get("/v1/webhooks/" + id).then().statusCode(404);
        as(p).delete("/v1/webhooks/" + id).then().statusCode(404);
    }

    @Test
    void rotationKeepsAnOverlapAndRefusesWeakOrUnchangedSecrets() {
        TestPartner p = TestPartners.register(registry);
        String id = Api.subscribe(p, receiver.url("/api-rot"), List.of("mandate.proposed"), SECRET);
        as(p).body(Map.of("secret", "tiny")).post("/v1/webhooks/" + id + "/rotate-secret").then().statusCode(400)
                .body("error.code", equalTo("weak_secret"));
        as(p).body(Map.of("overlapSeconds", 60)).post("/v1/webhooks/" + id + "/rotate-secret").then().statusCode(400)
                .body("error.code", equalTo("validation_error")).body("error.message", equalTo("secret: required"));
        as(p).body(Map.of("secret", SECRET + "-next", "overlapSeconds", "60")).post("/v1/webhooks/" + id + "/rotate-secret")
                .then().statusCode(400).body("error.code", equalTo("validation_error"))
                .body("error.message", equalTo("overlapSeconds: must be a number"));
        as(p).body(Map.of("secret", SECRET)).post("/v1/webhooks/" + id + "/rotate-secret").then().statusCode(400);
        as(p).body(Map.of("secret", SECRET + "-next", "overlapSeconds", 99_999_999))
                .post("/v1/webhooks/" + id + "/rotate-secret").then().statusCode(400);
        String body = as(p).body(Map.of("secret", SECRET + "-next", "overlapSeconds", 3600))
                .post("/v1/webhooks/" + id + "/rotate-secret").then().statusCode(200)
                .body("data.previousSecretExpiresAt", notNullValue())
                .body("data.standardWebhooksSecret", equalTo("whsec_" + java.util.Base64.getEncoder()
                        .encodeToString((SECRET + "-next").getBytes(java.nio.charset.StandardCharsets.UTF_8))))
                .extract().asString();
        assertThat(body).doesNotContain(SECRET);
        as(p).body(Map.of("secret", SECRET + "-third", "overlapSeconds", 0))
                .post("/v1/webhooks/" + id + "/rotate-secret").then().statusCode(200)
                .body("data.previousSecretExpiresAt", nullValue());
    }

    @Test
    void eventTypesAreListed() {
        TestPartner p = TestPartners.register(registry);
        as(p).get("/v1/webhooks/event-types").then().statusCode(200)
                .body("data", org.hamcrest.Matchers.hasItems("mandate.proposed", "mandate.signed_by_proposer",
                        "mandate.signed_by_both", "mandate.completed", "mandate.disputed", "mandate.in_progress",
                        "mandate.expired", "mandate.anchored", "mandate.charge_created", "mandate.charge_settled",
                        "mandate.charge_released", "mandate.budget_exhausted", "invoice.settled", "invoice.partially_paid",
                        "invoice.overpaid", "invoice.expired", "invoice.paid_late", "disco.benchmark.published",
                        "mandate.partially_signed", "mandate.signed_by_all", "mandate.dispute_evidence", "mandate.dispute_resolved",
                        "mandate.escrow_funded", "mandate.escrow_released", "mandate.escrow_refunded", "mandate.escrow_resolved"))
                .body("data", not(org.hamcrest.Matchers.hasItem("mandate.unknown")));
    }

    @Test
    void deliveryLogValidatesItsParameters() {
        TestPartner p = TestPartners.register(registry);
        String id = Api.subscribe(p, receiver.url("/api-log"), List.of("mandate.proposed"), SECRET);
        // the platform's typed query parameters: Bean Validation, then the page range (commons.rest.PageLimit)
        for (String[] bad : new String[][] {{"status=weird", "status: must be pending, succeeded or failed"},
                {"status=PENDING", "status: must be pending, succeeded or failed"},
                {"limit=0", "limit: must be an integer from 1 to 100"}, {"limit=101", "limit: must be an integer from 1 to 100"},
                {"limit=abc", "limit: must be a whole number"}, {"limit=-1", "limit: must be a whole number"}}) {
            as(p).get("/v1/webhooks/" + id + "/deliveries?" + bad[0]).then().statusCode(400).body("success", equalTo(false))
                    .body("error.code", equalTo("validation_error")).body("error.message", equalTo(bad[1]));
        }
        as(p).get("/v1/webhooks/" + id + "/deliveries").then().statusCode(200).body("data", hasSize(0));
        as(p).get("/v1/webhooks/" + id + "/deliveries?status=failed&limit=100").then().statusCode(200).body("data", hasSize(0));
        as(p).get("/v1/webhooks/" + id + "/deliveries?status=&limit= 5 ").then().statusCode(200).body("data", hasSize(0));
        as(p).get("/v1/webhooks/" + id + "/deliveries/" + java.util.UUID.randomUUID()).then().statusCode(404)
                .body("error.code", equalTo("delivery_not_found"));
        as(p).post("/v1/webhooks/" + id + "/deliveries/" + java.util.UUID.randomUUID() + "/redeliver").then().statusCode(404);
    }
}
