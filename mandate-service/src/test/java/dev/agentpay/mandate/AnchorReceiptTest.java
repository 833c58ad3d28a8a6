package dev.agentpay.mandate;

import static dev.agentpay.mandate.support.AnchorReceipts.receipt;
import static dev.agentpay.mandate.support.AnchorReceipts.send;
import static dev.agentpay.mandate.support.AnchorReceipts.tx;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.commons.events.AnchorReceiptEvent;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.mandate.support.Api.TestMandate;
import dev.agentpay.mandate.support.Api.TestPartner;
import dev.agentpay.mandate.support.Api;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Anchor receipts produced to the real {@code anchor-receipts} topic land on the right transition, once. */
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
        send(new AnchorReceiptEvent(UUID.randomUUID(), AnchorReceiptEvent.TYPE, m.id(), p.id(), Instant.now(), 1,
                UUID.randomUUID().toString(), "0x00", "completed", 84532L, tx('d'), 1, 0));
        send(new AnchorReceiptEvent(UUID.randomUUID(), AnchorReceiptEvent.TYPE, m.id(), p.id(), Instant.now(), 1,
                "not-a-uuid", "0x00", "completed", 84532L, tx('d'), 1, 0));
        send(receipt(UUID.randomUUID(), m, j, 0, tx('e'), 130));
        send(receipt(UUID.randomUUID(), m, j, 2, tx('f'), 131));
        await("later receipt").atMost(Duration.ofSeconds(20)).until(() -> Objects.equals(tx('f'),
                Api.get(m).jsonPath().getString("data.transitions[2].anchor_tx_hash")));
        assertThat(Api.get(m).jsonPath().getString("data.transitions[0].anchor_tx_hash")).isNull();
        assertThat(Api.get(m).asString()).doesNotContain(tx('d')).doesNotContain(tx('e'));
    }
}
