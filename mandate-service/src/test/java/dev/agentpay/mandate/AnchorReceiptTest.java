package dev.agentpay.mandate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.commons.events.AnchorReceiptEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.localstack.testing.SharedServers;
import dev.agentpay.mandate.support.Api;
import dev.agentpay.mandate.support.Api.TestMandate;
import dev.agentpay.mandate.support.Api.TestPartner;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.path.json.JsonPath;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** Anchor receipts produced to the real {@code anchor-receipts} topic land on the right transition, once. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class AnchorReceiptTest {

    static void send(AnchorReceiptEvent e) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, SharedServers.kafka().bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props)) {
            ProducerRecord<String, String> r = new ProducerRecord<>(Topics.ANCHOR_RECEIPTS, e.aggregateId(), EventCodec.encode(e));
            r.headers().add("event-id", e.eventId().toString().getBytes(StandardCharsets.UTF_8));
            r.headers().add("event-type", e.type().getBytes(StandardCharsets.UTF_8));
            producer.send(r).get();
        }
    }

    private static AnchorReceiptEvent receipt(UUID eventId, TestMandate m, JsonPath j, int index, String txHash, long block) {
        return new AnchorReceiptEvent(eventId, AnchorReceiptEvent.TYPE, m.id(), m.owner().id(), Instant.now(), 1,
                j.getString("data.transitions[" + index + "].id"), j.getString("data.proto_mandate_hash"),
                j.getString("data.transitions[" + index + "].to_state"), 84532L, txHash, block, 0);
    }

    private static String tx(char c) {
        return "0x" + String.valueOf(c).repeat(64);
    }

    @Test
    void receiptSetsTheAnchorOnItsTransitionOnce() throws Exception {
        TestPartner p = Api.newPartner("Anchored");
        TestMandate m = Api.signedByBoth(p);
        JsonPath j = Api.get(m).jsonPath();

        UUID first = UUID.randomUUID();
        send(receipt(first, m, j, 1, tx('a'), 100));
        send(receipt(first, m, j, 1, tx('a'), 100)); // redelivered
        Api.await(Duration.ofSeconds(20), () -> tx('a').equals(Api.get(m).jsonPath().getString("data.transitions[1].anchor_tx_hash")),
                "anchor of signed_by_proposer");
        JsonPath after = Api.get(m).jsonPath();
        assertThat(after.getString("data.transitions[0].anchor_tx_hash")).isNull();
        assertThat(after.getLong("data.transitions[1].anchor_block_number")).isEqualTo(100L);
        assertThat(after.getString("data.transitions[2].anchor_tx_hash")).isNull();

        // a re-anchor (new event) replaces it; a late redelivery of the first event must not bring it back
        send(receipt(UUID.randomUUID(), m, j, 1, tx('b'), 120));
        send(receipt(first, m, j, 1, tx('a'), 100));
        send(receipt(UUID.randomUUID(), m, j, 2, tx('c'), 121));
        // same key, same partition: once the last one is applied, the ones before it were processed
        Api.await(Duration.ofSeconds(20), () -> tx('c').equals(Api.get(m).jsonPath().getString("data.transitions[2].anchor_tx_hash")),
                "anchor of signed_by_both");
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
        Api.await(Duration.ofSeconds(20), () -> Objects.equals(tx('f'),
                Api.get(m).jsonPath().getString("data.transitions[2].anchor_tx_hash")), "later receipt");
        assertThat(Api.get(m).jsonPath().getString("data.transitions[0].anchor_tx_hash")).isNull();
        assertThat(Api.get(m).asString()).doesNotContain(tx('d')).doesNotContain(tx('e'));
    }
}
