package dev.agentpay.mandate;

import static dev.agentpay.mandate.support.AnchorReceipts.receipt;
import static dev.agentpay.mandate.support.AnchorReceipts.send;
import static dev.agentpay.mandate.support.AnchorReceipts.tx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.commons.events.AnchorReceiptEvent;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.support.Api.TestMandate;
import dev.agentpay.mandate.support.Api.TestPartner;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.MandateEvents;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Anchor receipts produced to the real {@code anchor-receipts} topic land on the right transition, once;
 * anchor_status on every view of a mandate, and the {@code mandate.anchored} event mandate-service writes
 * (through its outbox, to the real {@code mandate-events} topic) when it records a receipt.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class AnchorReceiptTest {

    @Test
    void receiptSetsTheAnchorOnItsTransitionOnce() throws Exception {
        TestPartner p = Api.newPartner("Anchored");
        TestMandate m = Api.signedByBoth(p);
        JsonPath j = Api.get(m).jsonPath();

        UUID first = UUID.randomUUID();
        send(receipt(first, m, j, 1, tx('a'), 100));
        send(receipt(first, m, j, 1, tx('a'), 100)); // redelivered
        await("anchor of signed_by_proposer").atMost(Duration.ofSeconds(20)).until(() -> tx('a').equals(Api.get(m).jsonPath().getString("data.transitions[1].anchor_tx_hash")));
        JsonPath after = Api.get(m).jsonPath();
        assertThat(after.getString("data.transitions[0].anchor_tx_hash")).isNull();
        assertThat(after.getLong("data.transitions[1].anchor_block_number")).isEqualTo(100L);
        assertThat(after.getString("data.transitions[2].anchor_tx_hash")).isNull();

        // a re-anchor (new event) replaces it; a late redelivery of the first event must not bring it back
        send(receipt(UUID.randomUUID(), m, j, 1, tx('b'), 120));
        send(receipt(first, m, j, 1, tx('a'), 100));
        send(receipt(UUID.randomUUID(), m, j, 2, tx('c'), 121));
        // same key, same partition: once the last one is applied, the ones before it were processed
        await("anchor of signed_by_both").atMost(Duration.ofSeconds(20)).until(() -> tx('c').equals(Api.get(m).jsonPath().getString("data.transitions[2].anchor_tx_hash")));
        assertThat(Api.get(m).jsonPath().getString("data.transitions[1].anchor_tx_hash")).isEqualTo(tx('b'));

        String receiptId = j.getString("data.drs_receipt_id");
        p.as().get("/v1/receipts/" + receiptId).then().statusCode(200)
                .body("data.anchor_tx_hash", org.hamcrest.Matchers.equalTo(tx('c')));
        RestAssured.given().get("/v1/public/mandates/" + m.id()).then().statusCode(200)
                .body("data.anchor_tx_hash", org.hamcrest.Matchers.equalTo(tx('c')));

        // a receipt naming a transition that does not exist, a malformed record and a receipt for the
        // creation row (which is never anchored) change nothing and do not block the topic
        send(new AnchorReceiptEvent(EventHeader.of(AnchorReceiptEvent.TYPE, m.id(), p.id(), Instant.now(), 1),
                UUID.randomUUID().toString(), "0x00", "completed", 84532L, tx('d'), 1, 0));
        send(new AnchorReceiptEvent(EventHeader.of(AnchorReceiptEvent.TYPE, m.id(), p.id(), Instant.now(), 1),
                "not-a-uuid", "0x00", "completed", 84532L, tx('d'), 1, 0));
        send(receipt(UUID.randomUUID(), m, j, 0, tx('e'), 130));
        send(receipt(UUID.randomUUID(), m, j, 2, tx('f'), 131));
        await("later receipt").atMost(Duration.ofSeconds(20)).until(() -> Objects.equals(tx('f'),
                Api.get(m).jsonPath().getString("data.transitions[2].anchor_tx_hash")));
        assertThat(Api.get(m).jsonPath().getString("data.transitions[0].anchor_tx_hash")).isNull();
        assertThat(Api.get(m).asString()).doesNotContain(tx('d')).doesNotContain(tx('e'));
    }

    @Test
    void transitionsArePendingUntilTheirReceiptThenAnchoredWithAnEvent() throws Exception {
        TestPartner p = Api.newPartner("AnchorStatus");
        TestMandate m = Api.signedByBoth(p);
        JsonPath j = Api.get(m).jsonPath();

        // before any receipt: the creation row is never anchored, the two signatures wait for theirs
        assertThat(j.<String>getList("data.transitions.anchor_status")).containsExactly("none", "pending", "pending");
        assertThat(j.<String>getList("data.transitions.anchor_tx_hash")).containsOnlyNulls();
        JsonPath pub = RestAssured.given().get("/v1/public/mandates/" + m.id()).then().statusCode(200).extract().jsonPath();
        assertThat(pub.getString("data.anchor_status")).isEqualTo("pending");
        assertThat(pub.getString("data.anchor_tx_hash")).isNull();
        JsonPath proof = RestAssured.given().get("/v1/public/mandates/" + m.id() + "/proof").then().statusCode(200)
                .extract().jsonPath();
        assertThat(proof.getString("data.anchor_status")).isEqualTo("pending");
        assertThat(proof.<String>getList("data.pending_anchors.to_state")).containsExactly("signed_by_proposer", "signed_by_both");
        assertThat(proof.<String>getList("data.anchors")).isEmpty();
        // the webhook payload of the transition (the event's Mandate row) says pending too
        List<MandateEvents.Received> transitionEvents = MandateEvents.get().await(m.id(), 3);
        JsonNode signedRow = transitionEvents.get(2).event().mandate();
        assertThat(transitionEvents.get(2).event().type()).isEqualTo("mandate.signed_by_both");
        assertThat(signedRow.at("/transitions/2/anchor_status").asText()).isEqualTo("pending");
        assertThat(signedRow.at("/transitions/2/anchor_tx_hash").isNull()).isTrue();

        UUID first = UUID.randomUUID();
        send(receipt(first, m, j, 1, tx('a'), 100));
        MandateEvents.Received anchored = awaitAnchored(m, 1).get(0);
        assertThat(anchored.headerType()).isEqualTo(MandateEvent.ANCHORED);
        assertThat(anchored.event().transitionId()).isEqualTo(j.getString("data.transitions[1].id"));
        assertThat(anchored.event().fromState()).as("not a state change, so anchor-service never anchors it").isNull();
        assertThat(anchored.event().toState()).isEqualTo("signed_by_proposer");
        assertThat(anchored.event().partnerId()).isEqualTo(p.id());
        assertThat(anchored.event().mandate().at("/transitions/1/anchor_status").asText()).isEqualTo("anchored");
        assertThat(anchored.event().mandate().at("/transitions/1/anchor_tx_hash").asText()).isEqualTo(tx('a'));
        assertThat(anchored.event().mandate().at("/transitions/2/anchor_status").asText()).isEqualTo("pending");
        // the latest transition still waits: the public view stays pending, its hash is the older anchor's
        RestAssured.given().get("/v1/public/mandates/" + m.id()).then().statusCode(200)
                .body("data.anchor_status", org.hamcrest.Matchers.equalTo("pending"));

        send(receipt(UUID.randomUUID(), m, j, 2, tx('b'), 101));
        awaitAnchored(m, 2);
        assertThat(Api.get(m).jsonPath().<String>getList("data.transitions.anchor_status"))
                .containsExactly("none", "anchored", "anchored");
        RestAssured.given().get("/v1/public/mandates/" + m.id()).then().statusCode(200)
                .body("data.anchor_status", org.hamcrest.Matchers.equalTo("anchored"))
                .body("data.anchor_tx_hash", org.hamcrest.Matchers.equalTo(tx('b')));
        JsonPath done = RestAssured.given().get("/v1/public/mandates/" + m.id() + "/proof").then().statusCode(200)
                .extract().jsonPath();
        assertThat(done.getString("data.anchor_status")).isEqualTo("anchored");
        assertThat(done.<String>getList("data.pending_anchors")).isEmpty();
        assertThat(done.<String>getList("data.anchors.to_state")).containsExactly("signed_by_proposer", "signed_by_both");

        // a redelivered receipt writes no second event; a receipt for the creation row changes nothing and
        // announces nothing; the next real receipt (same key, same partition, so after them) is announced
        send(receipt(first, m, j, 1, tx('a'), 100));
        send(receipt(UUID.randomUUID(), m, j, 0, tx('e'), 102));
        send(receipt(UUID.randomUUID(), m, j, 2, tx('c'), 103));
        List<MandateEvents.Received> all = awaitAnchored(m, 3);
        assertThat(all).hasSize(3);
        assertThat(all.get(2).event().mandate().at("/transitions/2/anchor_tx_hash").asText()).isEqualTo(tx('c'));
    }

    @Test
    void completingFromSignedByBothWritesTwoPendingTransitionsAndTwoEvents() {
        TestPartner p = Api.newPartner("AnchorStatusComplete");
        TestMandate m = Api.signedByBoth(p);
        var answer = Api.post(m, "complete", java.util.Map.of());
        assertThat(answer.statusCode()).isEqualTo(200);
        JsonPath j = answer.jsonPath();
        assertThat(j.<String>getList("data.mandate.transitions.to_state"))
                .containsExactly("proposed", "signed_by_proposer", "signed_by_both", "in_progress", "completed");
        assertThat(j.<String>getList("data.mandate.transitions.anchor_status"))
                .containsExactly("none", "pending", "pending", "pending", "pending");
        // one event per transition (anchor-service anchors each; it may batch both into one transaction)
        assertThat(MandateEvents.get().await(m.id(), 5)).extracting(e -> e.event().type())
                .containsExactly("mandate.proposed", "mandate.signed_by_proposer", "mandate.signed_by_both",
                        "mandate.in_progress", "mandate.completed");
    }

    private static List<MandateEvents.Received> awaitAnchored(TestMandate m, int count) {
        await(count + " mandate.anchored of " + m.id()).atMost(Duration.ofSeconds(20)).until(() -> anchoredOf(m).size() >= count);
        return anchoredOf(m);
    }

    private static List<MandateEvents.Received> anchoredOf(TestMandate m) {
        return MandateEvents.get().of(m.id()).stream().filter(e -> MandateEvent.ANCHORED.equals(e.event().type())).toList();
    }
}
