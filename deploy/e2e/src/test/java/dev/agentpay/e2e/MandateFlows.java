package dev.agentpay.e2e;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.mandate.signing.CanonicalMandate;
import io.restassured.response.Response;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;

/** A partner's side of the mandate flow, as an agent would call it through the gateway. */
final class MandateFlows {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String baseUrl;
    private final String apiKey;
    private final String signingSecret;

    MandateFlows(String baseUrl, String apiKey, String signingSecret) {
        this.baseUrl = baseUrl;
        this.apiKey = apiKey;
        this.signingSecret = signingSecret;
    }

    String create() {
        Map<String, Object> body = Map.of("proposer", "agent-e2e-a", "counterparty", "agent-e2e-b",
                "scope", "end-to-end anchoring check",
                "terms", Map.of("amount", 25, "currency", "USDC", "deliverable", "report"),
                "expiry", Instant.now().plus(2, ChronoUnit.DAYS).toString());
        return given().baseUri(baseUrl).header("x-api-key", apiKey).contentType("application/json").body(body)
                .post("/v1/mandates").then().statusCode(201).extract().path("data.mandate_id");
    }

    JsonNode get(String id) {
        Response r = given().baseUri(baseUrl).header("x-api-key", apiKey).get("/v1/mandates/" + id);
        if (r.statusCode() != 200) {
            throw new AssertionError("GET mandate " + id + ": " + r.statusCode() + " " + r.asString());
        }
        try {
            return JSON.readTree(r.asString()).get("data");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** The signature a partner computes over the canonical bytes of the mandate as the API shows it. */
    String signature(JsonNode m) throws Exception {
        byte[] bytes = CanonicalMandate.bytes(m.get("counterparty_agent_id").asText(), Instant.parse(m.get("expires_at").asText()),
                m.get("id").asText(), m.get("proposer_agent_id").asText(), m.get("scope").asText(),
                CanonicalMandate.canonicalTerms(JSON.writeValueAsString(m.get("terms"))));
        return CanonicalMandate.hmacHex(bytes, signingSecret);
    }

    /**
     * The signature over the canonical bytes of a mandate with a budget (issue 28): the member {@code "budget"} first,
     * {@code budgetJson} as the partner signs it ({@code {"amount":..,"currency":..,"max_per_charge":..,"period":..}}).
     */
    String signature(JsonNode m, String budgetJson) throws Exception {
        byte[] bytes = CanonicalMandate.bytes(m.get("counterparty_agent_id").asText(), Instant.parse(m.get("expires_at").asText()),
                m.get("id").asText(), m.get("proposer_agent_id").asText(), m.get("scope").asText(),
                CanonicalMandate.canonicalTerms(JSON.writeValueAsString(m.get("terms"))));
        return CanonicalMandate.hmacHex(CanonicalMandate.withBudget(bytes, budgetJson), signingSecret);
    }

    void sign(String id, String signer, String signature) {
        given().baseUri(baseUrl).header("x-api-key", apiKey).contentType("application/json")
                .body(Map.of("signer", signer, "signature", signature))
                .post("/v1/mandates/" + id + "/sign").then().statusCode(200);
    }
}
