package dev.agentpay.mandate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.Api.TestPartner;
import dev.agentpay.mandate.support.TestSigner;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The committed Node-generated vectors through the HTTP API: each vector's {@code terms} text is sent
 * verbatim at creation, and a signature over the vector's canonical terms (computed independently by
 * {@link TestSigner}) is accepted while the same signature with one byte changed is refused.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class CanonicalVectorsHttpTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyVectorIsAcceptedAndAOneByteChangeIsRefused() throws Exception {
        JsonNode root;
        try (InputStream in = getClass().getResourceAsStream("/canonical/vectors.json")) {
            root = JSON.readTree(in);
        }
        List<JsonNode> items = new ArrayList<>();
        root.get("items").forEach(items::add);
        assertThat(items).hasSizeGreaterThanOrEqualTo(200);

        TestPartner p = Api.newPartner("Vectors");
        String proposer = "agent-vector-p";
        String counterparty = "agent-vector-c";
        String scope = "vector scope";
        String expiry = Api.inDays(20);
        int checked = 0;
        for (JsonNode v : items) {
            String terms = v.get("terms").asText();
            String canonicalTerms = v.get("canonical_terms").asText();
            String body = "{\"proposer\":\"" + proposer + "\",\"counterparty\":\"" + counterparty + "\",\"scope\":\"" + scope
                    + "\",\"expiry\":\"" + expiry + "\",\"terms\":" + terms + "}";
            var created = p.as().contentType("application/json; charset=UTF-8").body(body.getBytes(StandardCharsets.UTF_8))
                    .post("/v1/mandates").then().extract();
            assertThat(created.statusCode()).as(v.get("name").asText() + ": " + created.asString()).isEqualTo(201);
            String id = created.path("data.mandate_id");
            String canonical = TestSigner.canonical(counterparty, expiry, id, proposer, scope, canonicalTerms);
            String sig = TestSigner.hmac(canonical, p.signingSecret());

            String bad = "{\"signer\":\"proposer\",\"signature\":\"" + TestSigner.tamper(sig) + "\"}";
            assertThat(p.as().contentType("application/json").body(bad).post("/v1/mandates/" + id + "/sign").statusCode())
                    .as(v.get("name").asText() + " tampered").isEqualTo(403);
            String good = "{\"signer\":\"proposer\",\"signature\":\"" + sig + "\"}";
            assertThat(p.as().contentType("application/json").body(good).post("/v1/mandates/" + id + "/sign").statusCode())
                    .as(v.get("name").asText()).isEqualTo(200);
            if (checked++ % 10 == 0) {
                String got = new String(p.as().get("/v1/mandates/" + id).asByteArray(), StandardCharsets.UTF_8);
                assertThat(got).as(v.get("name").asText()).contains("\"terms\":" + canonicalTerms + ",\"context\":");
                assertThat(got).contains("\"proto_mandate_hash\":\"" + TestSigner.sha256Hash(canonical) + "\"");
            }
        }
        assertThat(checked).isEqualTo(items.size());
    }
}
