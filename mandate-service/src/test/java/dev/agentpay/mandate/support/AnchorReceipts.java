package dev.agentpay.mandate.support;

import dev.agentpay.commons.events.AnchorReceiptEvent;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.Topics;
import dev.agentpay.localstack.testing.TestKafka;
import dev.agentpay.mandate.support.Api.TestMandate;
import io.restassured.path.json.JsonPath;
import java.time.Instant;
import java.util.UUID;

/** Anchor receipts as anchor-service publishes them, sent to the real {@code anchor-receipts} topic. */
public final class AnchorReceipts {

    private AnchorReceipts() {
    }

    public static void send(AnchorReceiptEvent e) {
        TestKafka.send(TestKafka.record(e));
    }

    /** Any payload, e.g. one no anchor-service could have written. */
    public static void sendRaw(String key, String payload, String eventId, String type) {
        TestKafka.send(TestKafka.record(Topics.ANCHOR_RECEIPTS, key, payload, eventId, type));
    }

    /** The receipt of transition {@code index} of {@code m} ({@code j}: the mandate as read). */
    public static AnchorReceiptEvent receipt(UUID eventId, TestMandate m, JsonPath j, int index, String txHash, long block) {
        return new AnchorReceiptEvent(new EventHeader(eventId, AnchorReceiptEvent.TYPE, m.id(), m.owner().id(), Instant.now(), 1),
                j.getString("data.transitions[" + index + "].id"), j.getString("data.proto_mandate_hash"),
                j.getString("data.transitions[" + index + "].to_state"), 84532L, txHash, block, 0);
    }

    public static String tx(char c) {
        return "0x" + String.valueOf(c).repeat(64);
    }
}
