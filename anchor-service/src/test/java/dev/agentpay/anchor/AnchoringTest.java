package dev.agentpay.anchor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import dev.agentpay.anchor.contract.MandateAnchor;
import dev.agentpay.anchor.support.AnchorChainTestResource;
import dev.agentpay.anchor.support.ChainView;
import dev.agentpay.anchor.support.KafkaIo;
import dev.agentpay.commons.events.AnchorReceiptEvent;
import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.localstack.AnvilNode;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.web3j.utils.Numeric;

/**
 * Mandate events in, anchor receipts out, checked against the chain itself: every transition after
 * creation gets one MandateAnchored log with its mandate hash and state; the creation gets none; a
 * redelivered event anchors nothing twice.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(AnchorChainTestResource.class)
class AnchoringTest {

    @BeforeAll
    static void collect() {
        KafkaIo.startCollecting();
    }

    @Test
    void signCompleteDisputeAndExpireFlowsAreAnchoredExceptCreation() {
        String h1 = KafkaIo.randomHash();
        String h2 = KafkaIo.randomHash();
        String h3 = KafkaIo.randomHash();
        List<MandateEvent> completed = KafkaIo.flow(KafkaIo.mandateId(), h1,
                "proposed", "signed_by_proposer", "signed_by_both", "in_progress", "completed");
        List<MandateEvent> disputed = KafkaIo.flow(KafkaIo.mandateId(), h2,
                "proposed", "signed_by_proposer", "signed_by_both", "disputed");
        List<MandateEvent> expired = KafkaIo.flow(KafkaIo.mandateId(), h3, "proposed", "expired");
        List<MandateEvent> all = new ArrayList<>();
        all.addAll(completed);
        all.addAll(disputed);
        all.addAll(expired);
        // mandate-service's mandate.anchored (a receipt recorded, no fromState), and one that names a
        // fromState all the same: neither is a transition, neither is anchored (that would never end). Put
        // before later events of the same mandate (same partition), so they are read before those receipts.
        String m1 = completed.get(0).aggregateId();
        List<MandateEvent> announcements = List.of(
                KafkaIo.event(m1, h1, MandateEvent.ANCHORED, null, "signed_by_proposer"),
                KafkaIo.event(m1, h1, MandateEvent.ANCHORED, "proposed", "signed_by_proposer"));
        all.addAll(2, announcements);
        all.forEach(KafkaIo::publish);
        KafkaIo.flush();

        List<MandateEvent> transitions = all.stream()
                .filter(e -> e.fromState() != null && !MandateEvent.ANCHORED.equals(e.type())).toList();
        assertThat(transitions).hasSize(8);
        awaitReceipts(transitions, Duration.ofSeconds(30));

        for (MandateEvent e : transitions) {
            List<KafkaIo.Received> got = KafkaIo.receipts(e.transitionId());
            assertThat(got).as("receipts of %s", e.toState()).hasSize(1);
            AnchorReceiptEvent r = got.get(0).event();
            assertThat(r.type()).isEqualTo(AnchorReceiptEvent.TYPE);
            assertThat(r.aggregateId()).isEqualTo(e.aggregateId());
            assertThat(r.partnerId()).isEqualTo(e.partnerId());
            assertThat(r.mandateHash()).isEqualTo(e.mandateHash());
            assertThat(r.state()).isEqualTo(e.toState());
            assertThat(r.chainId()).isEqualTo(AnchorChainTestResource.CHAIN_ID);
            assertThat(r.txHash()).matches("0x[0-9a-f]{64}");

            // the chain itself: the named log carries this mandate's hash and this transition's state
            assertThat(ChainView.receipt(r.txHash()).getBlockNumber().longValueExact()).isEqualTo(r.blockNumber());
            MandateAnchor.MandateAnchoredEventResponse log = ChainView.anchoredLog(r.txHash(), r.logIndex());
            assertThat(Numeric.toHexString(log.mandateHash)).isEqualTo(e.mandateHash());
            assertThat(log.state).isEqualTo(e.toState());
            assertThat(log.sender).isEqualToIgnoringCase(AnvilNode.DEV_ADDRESS_0);
            assertThat(log.ts.longValueExact()).isPositive();
        }
        // the creation rows and the mandate.anchored announcements carry no anchor (h1: still 4 logs below)
        for (MandateEvent e : all.stream().filter(e -> e.fromState() == null || MandateEvent.ANCHORED.equals(e.type())).toList()) {
            assertThat(KafkaIo.receipts(e.transitionId())).as("creation %s", e.transitionId()).isEmpty();
        }
        // on chain: exactly one log per anchored transition of each mandate
        assertThat(ChainView.logsFor(AnchorChainTestResource.contract(), h1)).hasSize(4);
        assertThat(ChainView.logsFor(AnchorChainTestResource.contract(), h2)).hasSize(3);
        assertThat(ChainView.logsFor(AnchorChainTestResource.contract(), h3)).hasSize(1);
    }

    @Test
    void eachReceiptContinuesTheTraceOfItsMandateEvent() {
        // two requests' events published together (typically one poll, one anchor transaction): each
        // receipt still carries its own event's trace, plus one event that came without a trace
        String[] traces = {KafkaIo.randomHash().substring(2, 34), KafkaIo.randomHash().substring(2, 34)};
        List<MandateEvent> events = new ArrayList<>();
        for (String trace : traces) {
            MandateEvent e = KafkaIo.event(KafkaIo.mandateId(), KafkaIo.randomHash(), "mandate.signed_by_proposer",
                    "proposed", "signed_by_proposer");
            KafkaIo.publishRaw(e.aggregateId(), EventCodec.encode(e), e.eventId(), e.type(),
                    "00-" + trace + "-" + KafkaIo.randomHash().substring(2, 18) + "-01");
            events.add(e);
        }
        MandateEvent untraced = KafkaIo.event(KafkaIo.mandateId(), KafkaIo.randomHash(), "mandate.signed_by_proposer",
                "proposed", "signed_by_proposer");
        KafkaIo.publish(untraced);
        KafkaIo.flush();
        awaitReceipts(List.of(events.get(0), events.get(1), untraced), Duration.ofSeconds(30));
        for (int i = 0; i < traces.length; i++) {
            assertThat(KafkaIo.receipts(events.get(i).transitionId()).get(0).traceparent())
                    .matches("00-" + traces[i] + "-[0-9a-f]{16}-01");
        }
        // no trace to continue: the relay starts one, so the receipt is still traceable
        assertThat(KafkaIo.receipts(untraced.transitionId()).get(0).traceparent())
                .matches("00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}")
                .doesNotContain(traces[0]).doesNotContain(traces[1]);
    }

    @Test
    void theSameTransitionDeliveredTwiceIsAnchoredOnce() {
        String hash = KafkaIo.randomHash();
        MandateEvent e = KafkaIo.event(KafkaIo.mandateId(), hash, "mandate.signed_by_proposer", "proposed", "signed_by_proposer");
        KafkaIo.publish(e);
        KafkaIo.publish(e); // a redelivery: same event
        // the same transition under a new event id (a producer retry that re-created the event)
        KafkaIo.publish(new MandateEvent(EventHeader.of(e.type(), e.aggregateId(), e.partnerId(), e.occurredAt(),
                e.schemaVersion()), e.transitionId(), e.fromState(), e.toState(), e.mandateHash(), null));
        KafkaIo.flush();
        awaitReceipts(List.of(e), Duration.ofSeconds(30));
        // a later event of the same partition proves the duplicates were consumed before we look
        MandateEvent later = KafkaIo.event(e.aggregateId(), hash, "mandate.signed_by_both", "signed_by_proposer", "signed_by_both");
        KafkaIo.publish(later);
        KafkaIo.publish(later);
        KafkaIo.flush();
        awaitReceipts(List.of(later), Duration.ofSeconds(30));
        // any duplicate anchor would be mined and published within a few blocks (1 s each): none may appear
        await("no duplicate anchor or receipt").during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(10))
                .until(() -> KafkaIo.receipts(e.transitionId()).size() == 1 && KafkaIo.receipts(later.transitionId()).size() == 1
                        && ChainView.logsFor(AnchorChainTestResource.contract(), hash).size() == 2);

        assertThat(KafkaIo.receipts(e.transitionId())).hasSize(1);
        assertThat(KafkaIo.receipts(later.transitionId())).hasSize(1);
        assertThat(ChainView.logsFor(AnchorChainTestResource.contract(), hash)).hasSize(2);
    }

    @Test
    void aMalformedEventIsSkippedWithoutBlockingTheOthers() {
        String mandate = KafkaIo.mandateId();
        MandateEvent bad = KafkaIo.event(mandate, "0x1234", "mandate.signed_by_proposer", "proposed", "signed_by_proposer");
        KafkaIo.publish(bad);
        KafkaIo.publishRaw(mandate, "{not json", UUID.randomUUID(), "mandate.signed_by_proposer");
        MandateEvent good = KafkaIo.event(mandate, KafkaIo.randomHash(), "mandate.signed_by_proposer", "proposed", "signed_by_proposer");
        KafkaIo.publish(good);
        KafkaIo.flush();
        awaitReceipts(List.of(good), Duration.ofSeconds(30));
        assertThat(KafkaIo.receipts(bad.transitionId())).isEmpty();
    }

    static void awaitReceipts(List<MandateEvent> events, Duration timeout) {
        await("transitions without receipt (of " + events.size() + ")").atMost(timeout)
                .until(() -> events.stream().filter(e -> KafkaIo.receipts(e.transitionId()).isEmpty()).count(), equalTo(0L));
    }

    static String json(MandateEvent e) {
        return EventCodec.encode(e);
    }
}
