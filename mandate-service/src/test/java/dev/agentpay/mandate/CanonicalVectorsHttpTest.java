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
import io.restassured.RestAssured;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * The committed Node-generated vectors through the HTTP API: each vector's {@code terms} text is sent
 * verbatim at creation; a signature over the vector's canonical terms (computed independently by
 * {@link TestSigner}) is accepted, while the same signature with one byte changed, and a signature over
 * the canonical bytes with one byte changed, are refused with 403.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class CanonicalVectorsHttpTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PROPOSER = "agent-vector-p";
    private static final String COUNTERPARTY = "agent-vector-c";
    private static final String SCOPE = "vector scope";

    private final HttpClient http = HttpClient.newHttpClient();

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
        String expiry = Api.inDays(20);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> results = new ArrayList<>();
            for (JsonNode v : items) {
                results.add(pool.submit(() -> check(p, expiry, v)));
            }
            List<String> failures = new ArrayList<>();
            for (Future<String> f : results) {
                String failure = f.get();
                if (failure != null) {
                    failures.add(failure);
                }
            }
            assertThat(failures).isEmpty();
            // both kinds are among the vectors (the test can tell them apart)
            assertThat(accepted.get()).isGreaterThanOrEqualTo(150);
            assertThat(refused.get()).isGreaterThanOrEqualTo(3);
        } finally {
            pool.shutdown();
        }
    }

    /** Runs one vector; returns a description of what went wrong, or null. */
    private String check(TestPartner p, String expiry, JsonNode v) throws Exception {
        String name = v.get("name").asText();
        String canonicalTerms = v.get("canonical_terms").asText();
        String body = "{\"proposer\":\"" + PROPOSER + "\",\"counterparty\":\"" + COUNTERPARTY + "\",\"scope\":\"" + SCOPE
                + "\",\"expiry\":\"" + expiry + "\",\"terms\":" + v.get("terms").asText() + "}";
        HttpResponse<String> created = send(p, "POST", "/v1/mandates", body);
        String refusal = expectedRefusal(v.get("terms").asText(), canonicalTerms);
        if (refusal != null) {
            // terms JavaScript would read differently from the text sent: refused, never signed as something else
            String code = created.statusCode() == 400 ? JSON.readTree(created.body()).at("/error/code").asText() : "";
            refused.incrementAndGet();
            return code.equals(refusal) ? null : name + ": expected 400 " + refusal + ", got " + created.statusCode() + " " + created.body();
        }
        accepted.incrementAndGet();
        if (created.statusCode() != 201) {
            return name + ": create " + created.statusCode() + " " + created.body();
        }
        String id = JSON.readTree(created.body()).at("/data/mandate_id").asText();
        String canonical = TestSigner.canonical(COUNTERPARTY, expiry, id, PROPOSER, SCOPE, canonicalTerms);
        String sig = TestSigner.hmac(canonical, p.signingSecret());

        char[] chars = canonical.toCharArray();
        int at = canonical.indexOf("\"terms\":") + 9;
        chars[at] = chars[at] == 'x' ? 'y' : 'x';
        for (String wrong : List.of(TestSigner.tamper(sig), TestSigner.hmac(new String(chars), p.signingSecret()))) {
            int status = send(p, "POST", "/v1/mandates/" + id + "/sign",
                    "{\"signer\":\"proposer\",\"signature\":\"" + wrong + "\"}").statusCode();
            if (status != 403) {
                return name + ": altered signature answered " + status;
            }
        }
        HttpResponse<String> signed = send(p, "POST", "/v1/mandates/" + id + "/sign",
                "{\"signer\":\"proposer\",\"signature\":\"" + sig + "\"}");
        if (signed.statusCode() != 200) {
            return name + ": sign " + signed.statusCode() + " " + signed.body() + " canonical " + canonical;
        }
        String got = send(p, "GET", "/v1/mandates/" + id, null).body();
        if (!got.contains("\"terms\":" + canonicalTerms + ",\"context\":")
                || !got.contains("\"proto_mandate_hash\":\"" + TestSigner.sha256Hash(canonical) + "\"")) {
            return name + ": stored terms or hash differ: " + got;
        }
        return null;
    }

    private final java.util.concurrent.atomic.AtomicInteger accepted = new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();

    private static final ObjectMapper STRICT = com.fasterxml.jackson.databind.json.JsonMapper.builder(
                    com.fasterxml.jackson.core.JsonFactory.builder().streamReadConstraints(com.fasterxml.jackson.core.StreamReadConstraints
                            .builder().maxNumberLength(100).maxNestingDepth(1000).build()).build())
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .build();

    /**
     * The error code a vector's terms must get, or {@code null} when they are accepted: a key repeated in
     * one object or a number of more than 100 characters is {@code invalid_json}; terms whose numbers
     * differ in value from the ones in the Node-computed canonical terms (1e400 printed as null, a
     * 30-digit integer rounded) are a {@code validation_error}.
     */
    private static String expectedRefusal(String terms, String canonicalTerms) {
        JsonNode sent;
        try {
            sent = STRICT.readTree(terms);
        } catch (Exception e) {
            return "invalid_json";
        }
        JsonNode canonical;
        try {
            canonical = STRICT.readTree(canonicalTerms);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        java.util.Comparator<JsonNode> byValue = (a, b) -> a.isNumber() && b.isNumber()
                ? a.decimalValue().compareTo(b.decimalValue()) : a.equals(b) ? 0 : 1;
        return sent.equals(byValue, canonical) ? null : "validation_error";
    }

    private HttpResponse<String> send(TestPartner p, String method, String path, String body) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + path))
                .header("x-api-key", p.apiKey());
        if (body != null) {
            b.header("Content-Type", "application/json; charset=UTF-8")
                    .method(method, HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }
}
