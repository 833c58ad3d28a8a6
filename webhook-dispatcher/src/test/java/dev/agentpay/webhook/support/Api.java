package dev.agentpay.webhook.support;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;

/** Calls of the webhook API through its real HTTP surface. */
public final class Api {

    private Api() {
    }

    public static RequestSpecification as(TestPartners.TestPartner p) {
        return given().header("x-api-key", p.apiKey()).contentType(ContentType.JSON);
    }

    /** Creates a subscription and returns its id. */
    public static String subscribe(TestPartners.TestPartner p, String url, List<String> events, String secret) {
        return as(p).body(Map.of("url", url, "events", events, "secret", secret))
                .post("/v1/webhooks").then().statusCode(201).extract().path("data.id");
    }

    /** Subscribes and returns the whole answer (with {@code data.standardWebhooksSecret}). */
    public static JsonPath subscribeAnswer(TestPartners.TestPartner p, String url, List<String> events, String secret) {
        return as(p).body(Map.of("url", url, "events", events, "secret", secret))
                .post("/v1/webhooks").then().statusCode(201).extract().jsonPath();
    }

    public static JsonPath deliveries(TestPartners.TestPartner p, String subscriptionId) {
        return as(p).get("/v1/webhooks/" + subscriptionId + "/deliveries").then().statusCode(200).extract().jsonPath();
    }

    public static JsonPath delivery(TestPartners.TestPartner p, String subscriptionId, String deliveryId) {
        return as(p).get("/v1/webhooks/" + subscriptionId + "/deliveries/" + deliveryId).then().statusCode(200)
                .extract().jsonPath();
    }

    public static JsonPath subscription(TestPartners.TestPartner p, String subscriptionId) {
        return as(p).get("/v1/webhooks/" + subscriptionId).then().statusCode(200).extract().jsonPath();
    }
}
