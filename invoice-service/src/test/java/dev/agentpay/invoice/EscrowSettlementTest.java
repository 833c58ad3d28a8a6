package dev.agentpay.invoice;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.commons.events.EscrowEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.InvoiceEvent;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.invoice.TestSupport.Partner;
import dev.agentpay.invoice.invoices.service.InvoiceService;
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
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Charges paid from a mandate's escrow (issue 30): settlement-watcher's {@code escrow.released}, published to the real
 * broker, settles the charge's invoice with settlementSource {@code escrow} and the release transaction, exactly once
 * however often it is delivered; a reorg's {@code escrow.rolled_back} takes it back; a release of no invoice, or of
 * another amount, is not attributed by coincidence.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class EscrowSettlementTest {

    static final String ADMIN = "test-admin-key-0123456789";
    static final AtomicLong BLOCK = new AtomicLong(500);

    @Inject
    PartnerRegistry registry;

    Partner partner() {
        return TestSupport.newPartner(registry);
    }

    static Response chargeInvoice(Partner p, String chargeId, String amount) {
        return given().header("x-admin-key", ADMIN).contentType(ContentType.JSON)
                .body("{\"partnerId\":\"" + p.id() + "\",\"mandateId\":\"mnd_" + UUID.randomUUID() + "\",\"amount\":" + amount
                        + ",\"chain\":\"base\",\"description\":\"charge\"}")
                .put("/admin/charges/" + chargeId + "/invoice");
    }

    static EscrowEvent released(String chargeId, String atomic) {
        String hash = "0x" + "12".repeat(32);
        return new EscrowEvent(new EventHeader(UUID.randomUUID(), EscrowEvent.RELEASED, hash, null, Instant.now(), 1), "base",
                "0x" + "e5".repeat(20), "0x" + "34".repeat(32), hash, "0x" + UUID.randomUUID().toString().replace("-", "").repeat(2),
                3, BLOCK.incrementAndGet(), "0x" + "bb".repeat(32), atomic, InvoiceService.escrowRef(chargeId), null, null, null,
                null, null, null, null, new EscrowEvent.Totals("10000000", atomic, "0", "0", "0"), "active", null, null, null);
    }

    static Response invoice(Partner p, String id) {
        return given().header("x-api-key", p.key()).get("/v1/invoices/" + id);
    }

    @Test
    void aReleaseSettlesItsChargesInvoiceOnceAndARollbackTakesItBack() {
        Partner p = partner();
        String charge = "chg_" + UUID.randomUUID();
        String id = chargeInvoice(p, charge, "2.5").then().statusCode(201).extract().path("data.id");
        try (ConsumerTask<String, String> events = TestKafka.collect(Topics.INVOICE_EVENTS)) {
            EscrowEvent release = released(charge, "2500000");
            TestKafka.send(TestKafka.record(release));
            TestKafka.send(TestKafka.record(release)); // redelivered
            await("settled from escrow").atMost(Duration.ofSeconds(20)).until(() -> "SETTLED".equals(invoice(p, id).path("data.status")));
            Response r = invoice(p, id);
            assertThat(r.<String>path("data.paymentDetails.settlementSource")).isEqualTo("escrow");
            assertThat(r.<String>path("data.paymentDetails.txHash")).isEqualTo(release.txHash());
            assertThat(r.<String>path("data.chargeId")).isEqualTo(charge);

            // a second charge's release is the marker: by its settlement the redelivery was consumed too
            String other = "chg_" + UUID.randomUUID();
            String otherId = chargeInvoice(p, other, "1").then().statusCode(201).extract().path("data.id");
            TestKafka.send(TestKafka.record(released(other, "1000000")));
            await("marker settled").atMost(Duration.ofSeconds(20)).until(() -> "SETTLED".equals(invoice(p, otherId).path("data.status")));
            await("events relayed").atMost(Duration.ofSeconds(20)).until(() -> events.stream()
                    .anyMatch(rec -> otherId.equals(rec.key()) && rec.value().contains(InvoiceEvent.SETTLED)));
            assertThat(events.stream().filter(rec -> id.equals(rec.key())).map(rec -> EventCodec.decode(rec.value(), InvoiceEvent.class).type())
                    .toList()).containsExactly(InvoiceEvent.CREATED, InvoiceEvent.SETTLED);
            assertThat(stripZeros(invoice(p, id).path("data.paymentDetails.paidAmount"))).isEqualTo("2.5");

            // a reorg removed the release: the invoice is pending again, announced as unsettled
            TestKafka.send(TestKafka.record(new EscrowEvent(new EventHeader(UUID.randomUUID(), EscrowEvent.ROLLED_BACK,
                    release.mandateHash(), null, Instant.now(), 1), "base", release.contract(), release.escrowId(), release.mandateHash(),
                    release.txHash(), release.logIndex(), release.blockNumber(), null, null, null, null, null, null, null, null, null,
                    null, null, null, null, null, release.eventId().toString())));
            await("unsettled").atMost(Duration.ofSeconds(20)).until(() -> "PENDING".equals(invoice(p, id).path("data.status")));
            await("unsettled announced").atMost(Duration.ofSeconds(20)).until(() -> events.stream()
                    .anyMatch(rec -> id.equals(rec.key()) && rec.value().contains(InvoiceEvent.UNSETTLED)));
        }
    }

    @Test
    void aReleaseOfNoInvoiceOrOfAnotherAmountIsNotAttributedByCoincidence() {
        Partner p = partner();
        String charge = "chg_" + UUID.randomUUID();
        String id = chargeInvoice(p, charge, "3").then().statusCode(201).extract().path("data.id");
        TestKafka.send(TestKafka.record(released("chg_" + UUID.randomUUID(), "3000000")));
        TestKafka.send(TestKafka.record(released(charge, "1000000")));
        await("partially paid").atMost(Duration.ofSeconds(20)).until(() -> "1".equals(stripZeros(invoice(p, id).path("data.paymentDetails.paidAmount"))));
        assertThat(invoice(p, id).<String>path("data.status")).isEqualTo("PENDING");
        assertThat(invoice(p, id).<String>path("data.paymentDetails.settlementSource")).isNull();
    }

    private static String stripZeros(Object amount) {
        return amount == null ? null : new java.math.BigDecimal(amount.toString()).stripTrailingZeros().toPlainString();
    }
}
