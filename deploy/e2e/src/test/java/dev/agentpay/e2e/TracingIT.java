package dev.agentpay.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
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

    private static String hex(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        b[0] |= 1; // never all zero (an invalid id)
        return HexFormat.of().formatHex(b);
    }
}
