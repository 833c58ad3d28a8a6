package dev.agentpay.discovery;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.commons.events.AnchorReceiptEvent;
import dev.agentpay.commons.events.DomainEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.InvoiceEvent;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.discovery.testing.UpstreamStubResource;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.localstack.testing.TestKafka;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.smallrye.reactive.messaging.kafka.companion.ConsumerTask;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Trust-signal counters fed by real Kafka events, counted once per event, published by the rebuild. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(UpstreamStubResource.class)
class TrustSignalsTest {

    static final String ADMIN = UpstreamStubResource.AdminKey.VALUE;
    static final ObjectMapper M = new ObjectMapper();

    @Test
    void countersFollowTheEventStreamsAndRedeliveryCountsOnce() throws Exception {
        given().post("/disco/admin/trust-signals/rebuild").then().statusCode(401);
        Map<String, Integer> base = metrics(rebuildAndRead());

        String m1 = "mnd_" + UUID.randomUUID();
        String m2 = "mnd_" + UUID.randomUUID();
        String inv1 = UUID.randomUUID().toString();
        String inv2 = UUID.randomUUID().toString();
        MandateEvent signed = mandate(m1, "mandate.signed_by_both", "signed_by_proposer", "signed_by_both");
        AnchorReceiptEvent a1 = anchor(m1, "tr-" + UUID.randomUUID());
        AnchorReceiptEvent a2 = anchor(m1, "tr-" + UUID.randomUUID());
        AnchorReceiptEvent a3 = anchor(m2, "tr-" + UUID.randomUUID());
        InvoiceEvent settled1 = invoice(inv1, InvoiceEvent.SETTLED);
        send(mandate(m1, "mandate.proposed", null, "proposed"), m1);
        send(signed, m1);
        send(signed, m1); // redelivered: same event id
        send(a1, m1);
        send(a1, m1);
        send(a2, m1);
        send(a3, m2);
        send(settled1, inv1);
        send(settled1, inv1);
        send(invoice(inv1, InvoiceEvent.CREATED), inv1);
        send(invoice(inv2, InvoiceEvent.SETTLED), inv2);
        send(invoice(inv2, InvoiceEvent.UNSETTLED), inv2);
        send(invoice(inv2, InvoiceEvent.SETTLED), inv2);
        // sentinels behind the duplicates on the same partitions: once they count, the duplicates were seen
        send(mandate(m2, "mandate.signed_by_both", "signed_by_proposer", "signed_by_both"), m1);
        send(anchor(m2, "tr-" + UUID.randomUUID()), m1);
        send(invoice(UUID.randomUUID().toString(), InvoiceEvent.SETTLED), inv1);

        Map<String, Integer> expected = Map.of(
                "drs_receipts_issued", base.get("drs_receipts_issued") + 2,
                "mandates_anchored", base.get("mandates_anchored") + 2,
                "anchored_transitions", base.get("anchored_transitions") + 4,
                "invoices_settled", base.get("invoices_settled") + 3);
        // the sentinels count only once the duplicates before them were read: exactly these figures, no more
        await("trust signals counting each new fact once").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300))
                .until(() -> metrics(rebuildAndRead()), equalTo(expected));
        // a further rebuild with nothing new changes nothing, and the section is served with its figures
        JsonPath section = given().get("/disco/sections/trust_signals.json").then().statusCode(200).extract().jsonPath();
        assertThat(section.getInt("metrics.drs_receipts_issued")).isEqualTo(expected.get("drs_receipts_issued"));
        assertThat(section.getString("rebuilt_at")).isNotBlank();
    }

    /**
     * Issue 31 item 3: every transition is anchored on each chain of {@code ANCHOR_CHAINS}, so it has one receipt per
     * chain (same transition id, another chain id, transaction and event id). Counted once per transition, and the
     * second chain's receipt is no error (no dead letter).
     */
    @Test
    void aTransitionAnchoredOnSeveralChainsCountsOnceAndNothingIsDeadLettered() throws Exception {
        Map<String, Integer> base = metrics(rebuildAndRead());
        try (ConsumerTask<String, String> dlt = TestKafka.collect(Topics.DLT_DISCOVERY_ANCHOR_RECEIPTS)) {
            String m = "mnd_" + UUID.randomUUID();
            String t1 = "tr-" + UUID.randomUUID();
            String t2 = "tr-" + UUID.randomUUID();
            List<AnchorReceiptEvent> receipts = List.of(anchor(m, t1, 84532), anchor(m, t1, 8453), anchor(m, t2, 8453),
                    anchor(m, t2, 84532), anchor(m, t2, 10));
            receipts.forEach(r -> send(r, m));
            // a sentinel behind them on the same partition
            send(anchor("mnd_" + UUID.randomUUID(), "tr-" + UUID.randomUUID(), 8453), m);
            Map<String, Integer> expected = Map.of(
                    "drs_receipts_issued", base.get("drs_receipts_issued"),
                    "mandates_anchored", base.get("mandates_anchored") + 2,
                    "anchored_transitions", base.get("anchored_transitions") + 3,
                    "invoices_settled", base.get("invoices_settled"));
            await("each transition counted once, whatever its chains").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300))
                    .until(() -> metrics(rebuildAndRead()), equalTo(expected));
            List<String> ids = receipts.stream().map(r -> r.eventId().toString()).toList();
            assertThat(dlt.getRecords()).noneMatch(r -> ids.contains(TestKafka.header(r, "event-id"))
                    || (r.value() != null && ids.stream().anyMatch(r.value()::contains)));
        }
    }

    private static JsonPath rebuildAndRead() {
        given().header("x-admin-key", ADMIN).post("/disco/admin/trust-signals/rebuild").then().statusCode(200);
        return given().get("/disco/sections/trust_signals.json").then().statusCode(200).extract().jsonPath();
    }

    private static Map<String, Integer> metrics(JsonPath p) {
        return Map.of("drs_receipts_issued", p.getInt("metrics.drs_receipts_issued"),
                "mandates_anchored", p.getInt("metrics.mandates_anchored"),
                "anchored_transitions", p.getInt("metrics.anchored_transitions"),
                "invoices_settled", p.getInt("metrics.invoices_settled"));
    }

    static MandateEvent mandate(String id, String type, String from, String to) {
        return new MandateEvent(EventHeader.of(type, id, "partner-1", Instant.now(), 1), "tr-" + UUID.randomUUID(), from, to,
                "0x" + "12".repeat(32), M.createObjectNode().put("id", id).put("state", to));
    }

    static AnchorReceiptEvent anchor(String mandateId, String transitionId) {
        return anchor(mandateId, transitionId, 84532);
    }

    /** A receipt of {@code transitionId} on {@code chainId}: its own event id and transaction. */
    static AnchorReceiptEvent anchor(String mandateId, String transitionId, long chainId) {
        return new AnchorReceiptEvent(EventHeader.of(AnchorReceiptEvent.TYPE, mandateId, "partner-1", Instant.now(), 1),
                transitionId, "0x" + "12".repeat(32), "signed_by_both", chainId, "0x" + UUID.randomUUID().toString().replace("-", "").repeat(2),
                10, 0);
    }

    static InvoiceEvent invoice(String id, String type) {
        return new InvoiceEvent(EventHeader.of(type, id, "partner-1", Instant.now(), 1),
                type.equals(InvoiceEvent.SETTLED) ? "SETTLED" : "PENDING", M.createObjectNode().put("id", id));
    }

    /** Sends {@code e} under {@code key} (a sentinel rides on another aggregate's partition) and waits for the acknowledgement. */
    static void send(DomainEvent e, String key) {
        TestKafka.send(TestKafka.record(e.topic(), key, EventCodec.encode(e), e.eventId().toString(), e.type()));
    }
}
