package dev.agentpay.anchor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.anchor.anchoring.service.AnchorPipeline;
import dev.agentpay.anchor.client.FaultInjection;
import dev.agentpay.anchor.support.AnchorChainTestResource;
import dev.agentpay.anchor.support.ChainView;
import dev.agentpay.anchor.support.KafkaIo;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.localstack.AnvilNode;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The service "dies" after storing a signed transaction (before or after broadcasting it) and is
 * restarted: the transition is anchored once, and the signer's nonces have neither gaps nor repeats.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(AnchorChainTestResource.class)
class CrashRecoveryTest {

    @Inject
    AnchorPipeline pipeline;

    @Inject
    FaultInjection faults;

    @Inject
    Pool pool;

    @BeforeAll
    static void collect() {
        KafkaIo.startCollecting();
    }

    @AfterEach
    void running() {
        faults.arm(null);
        pipeline.start();
    }

    @Test
    void killedAfterBroadcastBeforeRecordingAnchorsOnce() {
        crashAndRestart(FaultInjection.Point.AFTER_BROADCAST);
    }

    @Test
    void killedAfterStoringBeforeBroadcastAnchorsOnce() {
        crashAndRestart(FaultInjection.Point.AFTER_STORE);
    }

    private void crashAndRestart(FaultInjection.Point point) {
        faults.arm(point);
        String hash = KafkaIo.randomHash();
        List<MandateEvent> events = KafkaIo.flow(KafkaIo.mandateId(), hash, "proposed", "signed_by_proposer", "signed_by_both");
        events.forEach(KafkaIo::publish);
        KafkaIo.flush();
        await("pipeline did not hit " + point).atMost(Duration.ofSeconds(30)).until(() -> !pipeline.active());

        // the state a crash leaves: a stored signed transaction carrying the transitions, no receipt
        List<MandateEvent> transitions = events.subList(1, 3);
        for (MandateEvent e : transitions) {
            Row intent = one("select status, tx_nonce from anchor_intent where transition_id = $1", e.transitionId());
            assertThat(intent.getString(0)).isEqualTo("SENT");
            Row tx = one("select status from anchor_tx where nonce = $1", intent.getLong(1));
            assertThat(tx.getString(0)).isEqualTo("SIGNED");
            assertThat(count("select count(*) from anchor_receipt where transition_id = $1", e.transitionId())).isZero();
        }
        if (point == FaultInjection.Point.AFTER_BROADCAST) {
            // the node has it: it will be (or was) mined while we are "down"
            await("broadcast transaction not mined").atMost(Duration.ofSeconds(10)).until(() -> ChainView.logsFor(AnchorChainTestResource.contract(), hash).size() == 2);
        }
        // while "down" nothing is published, however long it lasts
        await("no receipt while the pipeline is down").during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(5))
                .until(() -> KafkaIo.receipts(transitions.get(0).transitionId()).isEmpty());

        pipeline.start(); // the restart: reconcile with the chain, rebroadcast, resume
        AnchoringTest.awaitReceipts(transitions, Duration.ofSeconds(30));
        // a second anchor would be mined and published within a few blocks: none may appear
        await("each transition anchored once").during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            for (MandateEvent e : transitions) {
                assertThat(KafkaIo.receipts(e.transitionId())).hasSize(1);
            }
            assertThat(ChainView.logsFor(AnchorChainTestResource.contract(), hash)).hasSize(2);
        });
        assertNoncesContiguous();
    }

    private void assertNoncesContiguous() {
        await("open transactions remain").atMost(Duration.ofSeconds(15)).until(() -> count("select count(*) from anchor_tx where status = 'SIGNED'") == 0);
        long onChain = ChainView.transactionCount(AnvilNode.DEV_ADDRESS_0);
        long next = one("select next_nonce from signer_nonce").getLong(0);
        assertThat(next).isEqualTo(onChain);
        long first = one("select coalesce(min(nonce), 0) from anchor_tx").getLong(0);
        assertThat(count("select count(*) from anchor_tx")).isEqualTo(next - first);
    }

    private Row one(String sql, Object... params) {
        return pool.preparedQuery(sql).execute(Tuple.from(params)).await().atMost(Duration.ofSeconds(5)).iterator().next();
    }

    private long count(String sql, Object... params) {
        return one(sql, params).getLong(0);
    }
}
