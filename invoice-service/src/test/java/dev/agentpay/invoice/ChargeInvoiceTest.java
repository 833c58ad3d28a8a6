package dev.agentpay.invoice;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.InvoiceEvent;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.invoice.TestSupport.Partner;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.localstack.testing.TestKafka;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The invoice of a mandate charge (issue 28): {@code PUT /admin/charges/{chargeId}/invoice}, idempotent by the
 * charge id, the invoice carrying {@code mandateId} and {@code chargeId} in the API and in its events.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class ChargeInvoiceTest {

    static final String ADMIN = "test-admin-key-0123456789";

    @Inject
    PartnerRegistry registry;

    Partner partner() {
        return TestSupport.newPartner(registry);
    }

    static String chargeId() {
        return "chg_" + UUID.randomUUID();
    }

    static Response put(String chargeId, String body) {
        return given().header("x-admin-key", ADMIN).contentType(ContentType.JSON).body(body)
                .put("/admin/charges/" + chargeId + "/invoice");
    }

    static String body(Partner p, String mandate, String amount, String chain, String expiresAt) {
        return "{\"partnerId\":\"" + p.id() + "\",\"mandateId\":\"" + mandate + "\",\"amount\":" + amount + ",\"chain\":\""
                + chain + "\",\"description\":\"charge\"" + (expiresAt == null ? "" : ",\"expiresAt\":\"" + expiresAt + "\"") + "}";
    }

    @Test
    void oneInvoicePerChargeHoweverOftenAndConcurrentlyItIsAsked() {
        Partner p = partner();
        String charge = chargeId();
        String mandate = "mnd_" + UUID.randomUUID();
        Response first = put(charge, body(p, mandate, "0.1", "base", null));
        assertThat(first.statusCode()).as(first.asString()).isEqualTo(201);
        String id = first.path("data.id");
        assertThat(first.<String>path("data.mandateId")).isEqualTo(mandate);
        assertThat(first.<String>path("data.chargeId")).isEqualTo(charge);
        assertThat(first.<String>path("data.paymentDetails.paymentAddress")).startsWith("0x");
        Response again = put(charge, body(p, mandate, "0.1", "base", null));
        assertThat(again.statusCode()).isEqualTo(200);
        assertThat(again.<String>path("data.id")).isEqualTo(id);
        // the partner reads it with its mandate and charge
        Response read = given().header("x-api-key", p.key()).get("/v1/invoices/" + id);
        assertThat(read.<String>path("data.mandateId")).isEqualTo(mandate);
        assertThat(read.<String>path("data.chargeId")).isEqualTo(charge);
        // another amount, mandate or partner for the same charge: refused, nothing created
        assertThat(put(charge, body(p, mandate, "0.2", "base", null)).<String>path("error.code")).isEqualTo("charge_invoice_conflict");
        assertThat(put(charge, body(p, "mnd_other", "0.1", "base", null)).statusCode()).isEqualTo(409);

        // ten concurrent first calls for a new charge: one invoice
        String racing = chargeId();
        List<CompletableFuture<Response>> calls = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            calls.add(CompletableFuture.supplyAsync(() -> put(racing, body(p, mandate, "0.3", "solana", null))));
        }
        Set<String> ids = new HashSet<>();
        int created = 0;
        for (var c : calls) {
            Response r = c.join();
            assertThat(r.statusCode()).as(r.asString()).isIn(200, 201);
            created += r.statusCode() == 201 ? 1 : 0;
            ids.add(r.path("data.id"));
        }
        assertThat(created).isEqualTo(1);
        assertThat(ids).hasSize(1);
    }

    @Test
    void refusalsCreateNothing() {
        Partner p = partner();
        put(chargeId(), body(p, "mnd_x", "0.1", "dogecoin", null)).then().statusCode(400);
        put(chargeId(), body(p, "mnd_x", "0.1234567", "base", null)).then().statusCode(400);
        put(chargeId(), body(p, "mnd_x", "0.1", "base", "2020-01-01T00:00:00Z")).then().statusCode(400);
        put("not-a-charge", body(p, "mnd_x", "0.1", "base", null)).then().statusCode(400);
        given().contentType(ContentType.JSON).body(body(p, "mnd_x", "0.1", "base", null))
                .put("/admin/charges/" + chargeId() + "/invoice").then().statusCode(401);
        assertThat(given().header("x-api-key", p.key()).get("/v1/invoices").<List<?>>path("data.items")).isEmpty();
    }

    @Test
    void theInvoicesEventsCarryTheMandateAndTheCharge() {
        Partner p = partner();
        String charge = chargeId();
        try (ConsumerTask<String, String> events = TestKafka.collect(Topics.INVOICE_EVENTS)) {
            String id = put(charge, body(p, "mnd_e", "0.5", "polygon", Instant.now().plusSeconds(2).toString()))
                    .then().statusCode(201).extract().path("data.id");
            await("invoice.created and invoice.expired of " + id).atMost(Duration.ofSeconds(30)).until(() ->
                    events.stream().filter(r -> id.equals(r.key())).count() >= 2);
            List<InvoiceEvent> mine = events.stream().filter(r -> id.equals(r.key()))
                    .map(r -> EventCodec.decode(r.value(), InvoiceEvent.class)).toList();
            assertThat(mine).extracting(InvoiceEvent::type).containsExactly(InvoiceEvent.CREATED, InvoiceEvent.EXPIRED);
            for (InvoiceEvent e : mine) {
                assertThat(e.invoice().path("mandateId").asText()).isEqualTo("mnd_e");
                assertThat(e.invoice().path("chargeId").asText()).isEqualTo(charge);
            }
        }
    }
}
