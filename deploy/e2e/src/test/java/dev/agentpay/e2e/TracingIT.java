package dev.agentpay.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * One request's trace across services on the real stack: a mandate signed through the gateway with a
 * caller's {@code traceparent}, which is not adopted (the caller is outside); mandate-service answers in
 * its own trace, its event on {@code mandate-events} carries that trace, and anchor-service's receipt for
 * that transition on {@code anchor-receipts} continues it.
 */
@Order(4)
class TracingIT {

    private static final SecureRandom RANDOM = new SecureRandom();

    @Test
    void aSignatureRequestsTraceReachesMandateEventsAndTheAnchorReceipt() throws Exception {
        Map<String, String> env = SharedStack.env();
        MandateFlows flows = new MandateFlows(env.get("BASE_URL"), env.get("API_KEY"), env.get("SIGNING_SECRET"));
        String id = flows.create();
        JsonNode m = flows.get(id);

        String traceId = hex(16);
        String traceparent = "00-" + traceId + "-" + hex(8) + "-01";
        String answer = given().baseUri(env.get("BASE_URL")).header("x-api-key", env.get("API_KEY"))
                .header("traceparent", traceparent).contentType("application/json")
                .body(Map.of("signer", "proposer", "signature", flows.signature(m)))
                .post("/v1/mandates/" + id + "/sign").then().statusCode(200).extract().header("traceresponse");
        // through the gateway the caller is outside: its traceparent is a link, the request gets its own
        // trace (service-commons TracingConfig.adoptTraceparent), named in traceresponse and followed below
        assertThat(answer).as("traceresponse through the gateway").matches("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}")
                .doesNotStartWith("00-" + traceId + "-");
        traceId = answer.substring(3, 35);

        String bootstrap = env.get("KAFKA_BOOTSTRAP_SERVERS");
        String onEvent = Kafka.header(bootstrap, "mandate-events", id, "mandate.signed_by_proposer", "traceparent",
                Duration.ofSeconds(30));
        assertThat(onEvent).as("traceparent on the mandate event").startsWith("00-" + traceId + "-");
        String onReceipt = Kafka.header(bootstrap, "anchor-receipts", id, "anchor.receipt", "traceparent",
                Duration.ofSeconds(60));
        assertThat(onReceipt).as("traceparent on anchor-service's receipt").startsWith("00-" + traceId + "-");
    }

    /**
     * The same path seen from an operator's tracing backend (issue 34): every service exports its spans over OTLP/HTTP
     * to {@link OtlpReceiver}; one signature request's trace id is on mandate-service's request span and outbox publish,
     * on the consumers of its event in webhook-dispatcher and anchor-service, and on anchor-service's receipt publish.
     */
    @Test
    void theSameTraceArrivesOverOtlpFromEveryServiceOnThePath() throws Exception {
        Map<String, String> env = SharedStack.env();
        MandateFlows flows = new MandateFlows(env.get("BASE_URL"), env.get("API_KEY"), env.get("SIGNING_SECRET"));
        String id = flows.create();
        String answer = given().baseUri(env.get("BASE_URL")).header("x-api-key", env.get("API_KEY"))
                .contentType("application/json").body(Map.of("signer", "proposer", "signature", flows.signature(flows.get(id))))
                .post("/v1/mandates/" + id + "/sign").then().statusCode(200).extract().header("traceresponse");
        String traceId = answer.substring(3, 35);
        OtlpReceiver receiver = OtlpReceiver.shared();
        java.util.function.Predicate<List<OtlpReceiver.ReceivedSpan>> complete = spans ->
                has(spans, "mandate-service", "POST") && has(spans, "mandate-service", "publish mandate-events")
                        && has(spans, "webhook-dispatcher", "process mandate-events")
                        && has(spans, "anchor-service", "process mandate-events")
                        && has(spans, "anchor-service", "publish anchor-receipts");
        org.awaitility.Awaitility.await("the trace " + traceId + " from every service on the path, over OTLP")
                .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> receiver.trace(traceId), complete);
        // one tree: every span but the request's own has its parent in the same trace. Each service exports in batches
        // of its own, so a child (a consumer's span) may arrive before its parent (the producer's publish, e.g. of a
        // later event of the same trace); the tree is awaited too, and a parent that never arrives fails it.
        org.awaitility.Awaitility.await("every span of " + traceId + " with its parent in the trace")
                .atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250))
                .untilAsserted(() -> {
                    List<OtlpReceiver.ReceivedSpan> spans = receiver.trace(traceId);
                    java.util.Set<String> ids = new java.util.HashSet<>(spans.stream().map(OtlpReceiver.ReceivedSpan::spanId).toList());
                    assertThat(spans.stream().filter(s -> !s.parentSpanId().isEmpty() && !ids.contains(s.parentSpanId())).toList())
                            .as("spans whose parent is not in the trace (only the gateway-facing request span may have none): %s", spans)
                            .allMatch(s -> s.service().equals("mandate-service") && s.name().startsWith("POST"));
                });
    }

    private static boolean has(List<OtlpReceiver.ReceivedSpan> spans, String service, String namePrefix) {
        return spans.stream().anyMatch(s -> s.service().equals(service) && s.name().startsWith(namePrefix));
    }

    private static String hex(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        b[0] |= 1; // never all zero (an invalid id)
        return HexFormat.of().formatHex(b);
    }
}
