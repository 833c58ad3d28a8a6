package dev.agentpay.mandate.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.InvoiceEvent;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.localstack.testing.TestKafka;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.Api.TestPartner;
import dev.agentpay.mandate.support.MandateEvents;
import dev.agentpay.mandate.support.TestSigner;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * Budgets on mandates and charges against them (issue 28), with invoice-service stood in by {@link InvoiceServiceStub}
 * and its {@code invoice-events} sent to the real broker.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(InvoiceServiceStub.class)
class BudgetChargeTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    Pool pool;

    @ConfigProperty(name = "budget.invoice-service-url")
    String stubUrl;

    /** A mandate with a budget, signed by both parties (the HMAC over the bytes with the budget member). */
    record Budgeted(String id, TestPartner owner, String canonical) {
    }

    static Map<String, Object> budget(String amount, String period, String max) {
        Map<String, Object> b = new LinkedHashMap<>();
        b.put("amount", amount);
        b.put("currency", "USDC");
        b.put("period", period);
        b.put("max_per_charge", max);
        return b;
    }

    static Response create(TestPartner p, Object budget, String proposer, String counterparty, String expiry) {
        Map<String, Object> body = Api.createBody(proposer, counterparty, expiry);
        if (budget != null) {
            body.put("budget", budget);
        }
        return p.as().contentType(ContentType.JSON).body(body).post("/v1/mandates");
    }

    /** The canonical bytes with the budget member first, as JSON.stringify of the key-sorted object writes them. */
    static String canonicalWithBudget(String budgetJson, String counterparty, String expiry, String id, String proposer) {
        String plain = TestSigner.canonical(counterparty, expiry, id, proposer, "Write the quarterly report", Api.TERMS);
        return "{\"budget\":" + budgetJson + "," + plain.substring(1);
    }

    static Budgeted signedBudget(TestPartner p, String amount, String period, String max) {
        String proposer = "agent-p-" + System.nanoTime();
        String counterparty = "agent-c-" + System.nanoTime();
        String expiry = Api.inDays(30);
        String id = create(p, budget(amount, period, max), proposer, counterparty, expiry).then().statusCode(201)
                .extract().path("data.mandate_id");
        String budgetJson = "{\"amount\":\"" + amount + "\",\"currency\":\"USDC\",\"max_per_charge\":"
                + (max == null ? "null" : "\"" + max + "\"") + ",\"period\":" + (period == null ? "null" : "\"" + period + "\"") + "}";
        String canonical = canonicalWithBudget(budgetJson, counterparty, expiry, id, proposer);
        String sig = TestSigner.hmac(canonical, p.signingSecret());
        for (String signer : List.of("proposer", "counterparty")) {
            p.as().contentType(ContentType.JSON).body(Map.of("signer", signer, "signature", sig))
                    .post("/v1/mandates/" + id + "/sign").then().statusCode(200);
        }
        return new Budgeted(id, p, canonical);
    }

    static Response charge(Budgeted m, Object amount, String chain, String description, String key) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("amount", amount);
        body.put("chain", chain);
        if (description != null) {
            body.put("description", description);
        }
        var spec = m.owner().as().contentType(ContentType.JSON).body(body);
        if (key != null) {
            spec = spec.header("Idempotency-Key", key);
        }
        return spec.post("/v1/mandates/" + m.id() + "/charges");
    }

    static ExtractableResponse<Response> budgetOf(Budgeted m) {
        return m.owner().as().get("/v1/mandates/" + m.id() + "/budget?limit=200").then().statusCode(200).extract();
    }

    static void sendInvoiceEvent(String type, String invoiceId, String chargeId, String partnerId, UUID eventId) {
        var invoice = JSON.createObjectNode();
        invoice.put("id", invoiceId);
        invoice.put("status", type.equals(InvoiceEvent.SETTLED) ? "SETTLED" : "EXPIRED");
        invoice.put("chargeId", chargeId);
        InvoiceEvent e = new InvoiceEvent(new EventHeader(eventId, type, invoiceId, partnerId, Instant.now(),
                InvoiceEvent.SCHEMA_VERSION), invoice.path("status").asText(), invoice);
        TestKafka.send(TestKafka.record(e));
    }

    @Test
    void theBudgetIsSignedAndShownButNotPublic() {
        TestPartner p = Api.newPartner("Budget signer");
        String proposer = "agent-p-" + System.nanoTime();
        String counterparty = "agent-c-" + System.nanoTime();
        String expiry = Api.inDays(30);
        String id = create(p, budget("1.00", "P1D", "0.25"), proposer, counterparty, expiry).then().statusCode(201)
                .extract().path("data.mandate_id");
        String plain = TestSigner.canonical(counterparty, expiry, id, proposer, "Write the quarterly report", Api.TERMS);
        String withBudget = canonicalWithBudget("{\"amount\":\"1.00\",\"currency\":\"USDC\",\"max_per_charge\":\"0.25\","
                + "\"period\":\"P1D\"}", counterparty, expiry, id, proposer);
        // the v0.1 bytes (no budget member) do not sign a mandate with a budget
        p.as().contentType(ContentType.JSON).body(Map.of("signer", "proposer", "signature", TestSigner.hmac(plain, p.signingSecret())))
                .post("/v1/mandates/" + id + "/sign").then().statusCode(403).body("error.code", org.hamcrest.Matchers.equalTo("invalid_signature"));
        p.as().contentType(ContentType.JSON).body(Map.of("signer", "proposer", "signature", TestSigner.hmac(withBudget, p.signingSecret())))
                .post("/v1/mandates/" + id + "/sign").then().statusCode(200);
        JsonNode m = read(p.as().get("/v1/mandates/" + id).then().statusCode(200).extract().asString()).path("data");
        assertThat(m.path("proto_mandate_hash").asText()).isEqualTo(TestSigner.sha256Hash(withBudget));
        assertThat(m.path("budget").toString()).isEqualTo("{\"amount\":\"1.00\",\"currency\":\"USDC\",\"period\":\"P1D\","
                + "\"max_per_charge\":\"0.25\"}");
        assertThat(m.path("budget_remaining").asText()).isEqualTo("1");
        JsonNode pub = read(RestAssured.get("/v1/public/mandates/" + id).then().statusCode(200).extract().asString()).path("data");
        assertThat(pub.path("has_budget").asBoolean()).isTrue();
        assertThat(pub.toString()).doesNotContain("1.00").doesNotContain("max_per_charge");
        // a mandate without a budget: no budget, null remaining, has_budget false; its bytes are the v0.1 ones
        Api.TestMandate plainMandate = Api.signedByBoth(p);
        JsonNode v = read(Api.get(plainMandate).asString()).path("data");
        assertThat(v.path("budget").isNull()).isTrue();
        assertThat(v.path("budget_remaining").isNull()).isTrue();
        assertThat(v.path("proto_mandate_hash").asText()).isEqualTo(TestSigner.sha256Hash(plainMandate.canonical()));
        assertThat(read(RestAssured.get("/v1/public/mandates/" + plainMandate.id()).asString()).path("data").path("has_budget")
                .asBoolean()).isFalse();
    }

    @Test
    void badBudgetsAreRefusedNamingTheField() {
        TestPartner p = Api.newPartner("Budget validator");
        Map<Object, String> cases = new LinkedHashMap<>();
        cases.put(budget("1.1234567", null, null), "budget.amount");
        cases.put(budget("0", null, null), "budget.amount");
        cases.put(budget("0.000000", null, null), "budget.amount");
        cases.put(budget("-1", null, null), "budget.amount");
        cases.put(budget("1e3", null, null), "budget.amount");
        Map<String, Object> eur = budget("1", null, null);
        eur.put("currency", "EUR");
        cases.put(eur, "budget.currency");
        cases.put(budget("1", "PT59M", null), "budget.period");
        cases.put(budget("1", "P1M", null), "budget.period");
        cases.put(budget("1", "daily", null), "budget.period");
        cases.put(budget("1", null, "1.5"), "budget.max_per_charge");
        cases.put(budget("1", null, "0"), "budget.max_per_charge");
        Map<String, Object> numeric = budget("1", null, null);
        numeric.put("amount", 1);
        cases.put(numeric, "budget.amount");
        Map<String, Object> missing = budget("1", null, null);
        missing.remove("currency");
        cases.put(missing, "budget.currency");
        Map<String, Object> extra = budget("1", null, null);
        extra.put("limit", "2");
        cases.put(extra, "budget.limit");
        for (var c : cases.entrySet()) {
            var r = create(p, c.getKey(), "a-" + System.nanoTime(), "b-" + System.nanoTime(), Api.inDays(3));
            assertThat(r.statusCode()).as(c.toString()).isEqualTo(400);
            assertThat(r.<String>path("error.code")).as(c.toString()).isEqualTo("validation_error");
            assertThat(r.<String>path("error.message")).as(c.toString()).startsWith(c.getValue());
        }
    }

    @Test
    void fiftyConcurrentChargesOfTenCentsAgainstOneDollarGiveExactlyTen() throws Exception {
        TestPartner p = Api.newPartner("Budget racer");
        Budgeted m = signedBudget(p, "1.00", null, null);
        HttpClient http = HttpClient.newHttpClient();
        ExecutorService threads = Executors.newFixedThreadPool(50);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<HttpResponse<String>>> futures = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            HttpRequest req = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + "/v1/mandates/"
                            + m.id() + "/charges"))
                    .header("x-api-key", p.apiKey()).header("Content-Type", "application/json")
                    .header("Idempotency-Key", "race-" + i)
                    .POST(HttpRequest.BodyPublishers.ofString("{\"amount\":\"0.10\",\"chain\":\"base\"}")).build();
            futures.add(threads.submit(() -> {
                start.await();
                return http.send(req, HttpResponse.BodyHandlers.ofString());
            }));
        }
        start.countDown();
        int created = 0;
        int exceeded = 0;
        for (var f : futures) {
            HttpResponse<String> r = f.get();
            if (r.statusCode() == 201) {
                created++;
            } else {
                assertThat(r.statusCode()).as(r.body()).isEqualTo(409);
                JsonNode err = read(r.body()).path("error");
                assertThat(err.path("code").asText()).isEqualTo("budget_exceeded");
                assertThat(err.path("remaining").asText()).isEqualTo("0");
                exceeded++;
            }
        }
        threads.shutdown();
        assertThat(created).isEqualTo(10);
        assertThat(exceeded).isEqualTo(40);
        JsonNode b = read(budgetOf(m).asString()).path("data");
        assertThat(b.path("reserved").asText()).isEqualTo("1");
        assertThat(b.path("spent").asText()).isEqualTo("0");
        assertThat(b.path("remaining").asText()).isEqualTo("0");
        assertThat(b.path("charges")).hasSize(10);
        b.path("charges").forEach(c -> assertThat(c.path("status").asText()).isEqualTo("pending"));
        // ten charge_created and one budget_exhausted on mandate-events
        await("charge events").atMost(Duration.ofSeconds(20)).until(() -> types(m.id()).stream()
                .filter("mandate.charge_created"::equals).count() == 10 && types(m.id()).contains("mandate.budget_exhausted"));
        assertThat(types(m.id()).stream().filter("mandate.budget_exhausted"::equals).count()).isEqualTo(1);
    }

    @Test
    void settledSpendsExpiredReleasesOncePerEvent() {
        TestPartner p = Api.newPartner("Budget settler");
        Budgeted m = signedBudget(p, "0.30", null, null);
        JsonNode c1 = read(charge(m, "0.10", "base", "first", null).then().statusCode(201).extract().asString()).path("data");
        JsonNode c2 = read(charge(m, 0.1, "solana", null, null).then().statusCode(201).extract().asString()).path("data");
        JsonNode c3 = read(charge(m, "0.1", "base", null, null).then().statusCode(201).extract().asString()).path("data");
        assertThat(c1.path("status").asText()).isEqualTo("pending");
        assertThat(c1.path("invoice_id").asText()).isNotBlank();
        assertThat(c1.path("paymentDetails").path("paymentAddress").asText()).startsWith("0x");
        assertThat(c3.path("budget_remaining").asText()).isEqualTo("0");
        charge(m, "0.000001", "base", null, null).then().statusCode(409);

        UUID settleEvent = UUID.randomUUID();
        sendInvoiceEvent(InvoiceEvent.SETTLED, c1.path("invoice_id").asText(), c1.path("charge_id").asText(), p.id(), settleEvent);
        sendInvoiceEvent(InvoiceEvent.EXPIRED, c2.path("invoice_id").asText(), c2.path("charge_id").asText(), p.id(), UUID.randomUUID());
        await("settled and released").atMost(Duration.ofSeconds(20)).until(() -> {
            JsonNode b = read(budgetOf(m).asString()).path("data");
            return b.path("spent").asText().equals("0.1") && b.path("reserved").asText().equals("0.1");
        });
        // the same settle event again, and a second settle of the same invoice: nothing more is spent
        sendInvoiceEvent(InvoiceEvent.SETTLED, c1.path("invoice_id").asText(), c1.path("charge_id").asText(), p.id(), settleEvent);
        sendInvoiceEvent(InvoiceEvent.SETTLED, c1.path("invoice_id").asText(), c1.path("charge_id").asText(), p.id(), UUID.randomUUID());
        // a marker after them: once its effect shows, the repeats were consumed before it
        sendInvoiceEvent(InvoiceEvent.SETTLED, c3.path("invoice_id").asText(), c3.path("charge_id").asText(), p.id(), UUID.randomUUID());
        await("marker settled").atMost(Duration.ofSeconds(20)).until(() ->
                read(budgetOf(m).asString()).path("data").path("spent").asText().equals("0.2"));
        JsonNode b = read(budgetOf(m).asString()).path("data");
        assertThat(b.path("reserved").asText()).isEqualTo("0");
        assertThat(b.path("remaining").asText()).isEqualTo("0.1");
        Map<String, String> statuses = new LinkedHashMap<>();
        b.path("charges").forEach(c -> statuses.put(c.path("charge_id").asText(), c.path("status").asText()));
        assertThat(statuses).containsEntry(c1.path("charge_id").asText(), "settled")
                .containsEntry(c2.path("charge_id").asText(), "released")
                .containsEntry(c3.path("charge_id").asText(), "settled");
        // the released amount can be charged again
        charge(m, "0.1", "base", null, null).then().statusCode(201);
        await("settled/released events").atMost(Duration.ofSeconds(20)).until(() ->
                types(m.id()).stream().filter("mandate.charge_settled"::equals).count() == 2
                        && types(m.id()).contains("mandate.charge_released"));
        JsonNode mandate = read(m.owner().as().get("/v1/mandates/" + m.id()).asString()).path("data");
        assertThat(mandate.path("budget_remaining").asText()).isEqualTo("0");
    }

    @Test
    void replaysRefusalsAndLimits() {
        TestPartner p = Api.newPartner("Budget refusals");
        Budgeted m = signedBudget(p, "1", null, "0.5");
        String first = charge(m, "0.2", "base", "once", "key-1").then().statusCode(201).extract().asString();
        var again = charge(m, "0.2", "base", "once", "key-1");
        assertThat(again.statusCode()).isEqualTo(201);
        assertThat(again.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(again.asString()).isEqualTo(first);
        charge(m, "0.3", "base", "once", "key-1").then().statusCode(409)
                .body("error.code", org.hamcrest.Matchers.equalTo("idempotency_key_reused"));
        charge(m, "0.6", "base", null, null).then().statusCode(409)
                .body("error.code", org.hamcrest.Matchers.equalTo("charge_over_limit"));
        // invoice-service refuses the invoice (stub: polygon): 400 passed through, nothing reserved or listed
        charge(m, "0.1", "polygon", null, "key-2").then().statusCode(400)
                .body("error.code", org.hamcrest.Matchers.equalTo("chain_not_configured"));
        JsonNode b = read(budgetOf(m).asString()).path("data");
        assertThat(b.path("reserved").asText()).isEqualTo("0.2");
        assertThat(b.path("charges")).hasSize(1);
        // the refused key may be used again for a corrected request
        charge(m, "0.1", "base", null, "key-2").then().statusCode(201);
        // bad input names the field
        charge(m, "0.1234567", "base", null, null).then().statusCode(400)
                .body("error.message", org.hamcrest.Matchers.startsWith("amount"));
        charge(m, "0", "base", null, null).then().statusCode(400).body("error.message", org.hamcrest.Matchers.startsWith("amount"));
        charge(m, "0.1", "dogecoin", null, null).then().statusCode(400)
                .body("error.code", org.hamcrest.Matchers.equalTo("unsupported_chain"));
        // an explicit JSON null (Jackson gives a NullNode, not null: found by FuzzIT as a 500), an object, a boolean
        for (String amount : java.util.List.of("null", "{}", "true", "[1]")) {
            m.owner().as().contentType(ContentType.JSON).body("{\"amount\":" + amount + ",\"chain\":\"base\"}")
                    .post("/v1/mandates/" + m.id() + "/charges").then().statusCode(400)
                    .body("error.code", org.hamcrest.Matchers.equalTo("validation_error"))
                    .body("error.message", org.hamcrest.Matchers.startsWith("amount"));
        }
        m.owner().as().contentType(ContentType.JSON).body(Map.of("amount", "0.1", "chain", "base", "expires_in", 5))
                .post("/v1/mandates/" + m.id() + "/charges").then().statusCode(400)
                .body("error.message", org.hamcrest.Matchers.startsWith("expires_in"));
        // no budget, not signed, another partner's
        Api.TestMandate plain = Api.signedByBoth(p);
        plain.owner().as().contentType(ContentType.JSON).body(Map.of("amount", "0.1", "chain", "base"))
                .post("/v1/mandates/" + plain.id() + "/charges").then().statusCode(409)
                .body("error.code", org.hamcrest.Matchers.equalTo("no_budget"));
        String unsigned = create(p, budget("1", null, null), "x-" + System.nanoTime(), "y-" + System.nanoTime(), Api.inDays(2))
                .path("data.mandate_id");
        p.as().contentType(ContentType.JSON).body(Map.of("amount", "0.1", "chain", "base"))
                .post("/v1/mandates/" + unsigned + "/charges").then().statusCode(409)
                .body("error.code", org.hamcrest.Matchers.equalTo("mandate_not_active"));
        TestPartner other = Api.newPartner("Budget stranger");
        other.as().contentType(ContentType.JSON).body(Map.of("amount", "0.1", "chain", "base"))
                .post("/v1/mandates/" + m.id() + "/charges").then().statusCode(404);
        other.as().get("/v1/mandates/" + m.id() + "/budget").then().statusCode(404);
    }

    @Test
    void aChargeWhoseInvoiceWasNotCreatedIsFinishedByTheRecoveryLoop() {
        TestPartner p = Api.newPartner("Budget recovery");
        Budgeted m = signedBudget(p, "1", null, null);
        // the stub answers 503 to the first call of a "flaky" charge: the charge stays reserving
        charge(m, "0.4", "base", "flaky", "k-flaky").then().statusCode(503)
                .body("error.code", org.hamcrest.Matchers.equalTo("charge_pending"));
        JsonNode b = read(budgetOf(m).asString()).path("data");
        assertThat(b.path("reserved").asText()).isEqualTo("0.4");
        assertThat(b.path("charges").get(0).path("status").asText()).isEqualTo("reserving");
        String chargeId = b.path("charges").get(0).path("charge_id").asText();
        await("recovered").atMost(Duration.ofSeconds(30)).until(() ->
                read(budgetOf(m).asString()).path("data").path("charges").get(0).path("status").asText().equals("pending"));
        JsonNode state = read(RestAssured.given().baseUri(stubUrl).get("/_state").asString());
        String invoiceId = state.path("invoices").path(chargeId).asText();
        assertThat(read(budgetOf(m).asString()).path("data").path("charges").get(0).path("invoice_id").asText()).isEqualTo(invoiceId);
        // the client's retry with the same key answers the charge, with the same invoice
        var replay = charge(m, "0.4", "base", "flaky", "k-flaky");
        assertThat(replay.statusCode()).isEqualTo(201);
        assertThat(replay.<String>path("data.invoice_id")).isEqualTo(invoiceId);
        assertThat(read(budgetOf(m).asString()).path("data").path("charges")).hasSize(1);
        await("charge_created").atMost(Duration.ofSeconds(20)).until(() -> types(m.id()).contains("mandate.charge_created"));
    }

    @Test
    void aPeriodBoundaryRenewsTheBudget() {
        TestPartner p = Api.newPartner("Budget periods");
        Budgeted m = signedBudget(p, "0.5", "PT1H", null);
        String c = charge(m, "0.5", "base", null, null).then().statusCode(201).extract().path("data.invoice_id");
        String chargeId = read(budgetOf(m).asString()).path("data").path("charges").get(0).path("charge_id").asText();
        sendInvoiceEvent(InvoiceEvent.SETTLED, c, chargeId, p.id(), UUID.randomUUID());
        await("spent").atMost(Duration.ofSeconds(20)).until(() ->
                read(budgetOf(m).asString()).path("data").path("spent").asText().equals("0.5"));
        charge(m, "0.1", "base", null, null).then().statusCode(409);
        // an hour passes: the mandate was signed, and its period started, 61 minutes ago
        pool.preparedQuery("update mandate_transition set created_at = created_at - interval '61 minutes' where mandate_id = $1")
                .execute(Tuple.of(m.id())).await().indefinitely();
        pool.preparedQuery("update mandate_budget set period_start = period_start - interval '61 minutes' where mandate_id = $1")
                .execute(Tuple.of(m.id())).await().indefinitely();
        JsonNode b = read(budgetOf(m).asString()).path("data");
        assertThat(b.path("spent").asText()).isEqualTo("0");
        assertThat(b.path("remaining").asText()).isEqualTo("0.5");
        charge(m, "0.5", "base", null, null).then().statusCode(201);
        charge(m, "0.1", "base", null, null).then().statusCode(409);
    }

    private static List<String> types(String mandateId) {
        return MandateEvents.get().of(mandateId).stream().map(MandateEvents.Received::headerType).toList();
    }

    private static JsonNode read(String s) {
        try {
            return JSON.readTree(s);
        } catch (Exception e) {
            throw new IllegalStateException(s, e);
        }
    }
}
