package dev.agentpay.anchor;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.anchor.support.AnchorChainTestResource;
import dev.agentpay.anchor.support.ChainView;
import dev.agentpay.anchor.support.KafkaIo;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.localstack.AnvilNode;
import dev.agentpay.localstack.chain.EvmRpc;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Anchoring heals itself when the chain loses transactions behind anchor-service's back (issue 16): a
 * transaction dropped from the node's pool, and the chain reverted to a state before transactions it had
 * confirmed (the nonce gap that once left anchoring stuck for good). Each transition still has exactly
 * one {@code MandateAnchored} log on the chain and one receipt event; readiness is DOWN while the gap lasts.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(AnchorChainTestResource.class)
class NonceGapTest {

    @Inject
    Pool pool;

    @BeforeAll
    static void collect() {
        KafkaIo.startCollecting();
    }

    private static EvmRpc rpc() {
        return new EvmRpc(AnchorChainTestResource.anvil().rpcUrl());
    }

    /** A mandate's flow, published; returns its two anchored transitions. */
    private static List<MandateEvent> publishFlow(String hash) {
        List<MandateEvent> events = KafkaIo.flow(KafkaIo.mandateId(), hash, "proposed", "signed_by_proposer", "signed_by_both");
        events.forEach(KafkaIo::publish);
        KafkaIo.flush();
        return events.subList(1, 3);
    }

    private String broadcastTxOf(MandateEvent transition) {
        await("transaction of " + transition.transitionId() + " not broadcast").atMost(Duration.ofSeconds(30)).until(() -> {
            RowSet<Row> rs = pool.preparedQuery("select t.tx_hash from anchor_intent i join anchor_tx t on t.nonce = i.tx_nonce"
                    + " where i.transition_id = $1 and t.broadcast_at is not null").execute(Tuple.of(transition.transitionId()))
                    .await().atMost(Duration.ofSeconds(5));
            return rs.size() == 1;
        });
        return pool.preparedQuery("select t.tx_hash from anchor_intent i join anchor_tx t on t.nonce = i.tx_nonce where i.transition_id = $1")
                .execute(Tuple.of(transition.transitionId())).await().atMost(Duration.ofSeconds(5)).iterator().next().getString(0);
    }

    private static void assertAnchoredOnce(String hash, List<MandateEvent> transitions) {
        assertThat(ChainView.logsFor(AnchorChainTestResource.contract(), hash)).as("MandateAnchored logs of " + hash).hasSize(2);
        for (MandateEvent e : transitions) {
            assertThat(KafkaIo.receipts(e.transitionId())).as("receipts of " + e.transitionId()).hasSize(1);
        }
    }

    private static String anchoringCheck() {
        return given().get("/q/health/ready").jsonPath().getString("checks.find { it.name == 'anchoring' }.status");
    }

    private static String anchoringStalledReason() {
        return String.valueOf(given().get("/q/health/ready").jsonPath().getString("checks.find { it.name == 'anchoring' }.data.stalled"));
    }

    @Test
    void aTransactionDroppedFromTheNodesPoolIsSentAgain() {
        rpc().call("evm_setIntervalMining", 0); // hold mining so the transactions sit in the pool
        String first;
        List<MandateEvent> a;
        List<MandateEvent> b;
        String hashA = KafkaIo.randomHash();
        String hashB = KafkaIo.randomHash();
        try {
            a = publishFlow(hashA);
            first = broadcastTxOf(a.get(0));
            b = publishFlow(hashB);
            String second = broadcastTxOf(b.get(0));
            assertThat(second).isNotEqualTo(first);
            rpc().call("anvil_dropTransaction", first); // the later one now waits for a nonce nobody holds
            assertThat(rpc().call("eth_getTransactionByHash", first).isNull()).isTrue();
        } finally {
            rpc().call("evm_setIntervalMining", 1);
        }
        List<MandateEvent> all = new ArrayList<>(a);
        all.addAll(b);
        AnchoringTest.awaitReceipts(all, Duration.ofSeconds(60));
        assertAnchoredOnce(hashA, a);
        assertAnchoredOnce(hashB, b);
        assertThat(ChainView.receipt(first).isStatusOK()).isTrue();
    }

    @Test
    void aChainRevertedBehindItsBackIsRefilledAndAnchoringResumes() {
        String snapshot = rpc().call("evm_snapshot").asText();
        long nonceAtSnapshot = ChainView.transactionCount(AnvilNode.DEV_ADDRESS_0);
        String hashA = KafkaIo.randomHash();
        List<MandateEvent> a = publishFlow(hashA);
        AnchoringTest.awaitReceipts(a, Duration.ofSeconds(60));
        assertThat(ChainView.logsFor(AnchorChainTestResource.contract(), hashA)).hasSize(2);
        double gapsBefore = metric("anchor_nonce_gaps_total");

        double resentBefore = metric("anchor_nonce_refilled_total", "kind=\"confirmed-tx-again\"");
        List<MandateEvent> b;
        String hashB = KafkaIo.randomHash();
        // Mining is held while the gap lasts, so the gap (and readiness DOWN) stays until the test lets the
        // chain go on: healed, the gap closes within a block, a ~4 s DOWN window a poll under load can miss.
        rpc().call("evm_setIntervalMining", 0);
        try {
            // the chain forgets A's transaction (a reset, a lost state file, another RPC provider's view)
            assertThat(rpc().call("evm_revert", snapshot).asBoolean()).isTrue();
            assertThat(ChainView.transactionCount(AnvilNode.DEV_ADDRESS_0)).isEqualTo(nonceAtSnapshot);
            assertThat(ChainView.logsFor(AnchorChainTestResource.contract(), hashA)).isEmpty();

            // B is signed at the next stored nonce, above the chain's: it could never be mined as it is
            b = publishFlow(hashB);
            await("readiness did not report the nonce gap").atMost(Duration.ofSeconds(30))
                    .until(() -> "DOWN".equals(anchoringCheck()) && anchoringStalledReason().contains("nonce"));
            // healing sends A's confirmed transaction again while the gap lasts; readiness stays DOWN meanwhile
            await("A's transaction not sent again").atMost(Duration.ofSeconds(30))
                    .until(() -> metric("anchor_nonce_refilled_total", "kind=\"confirmed-tx-again\"") > resentBefore);
            assertThat(anchoringCheck()).as("readiness while the chain still lacks the refilled nonces").isEqualTo("DOWN");
        } finally {
            rpc().call("evm_setIntervalMining", 1);
        }
        AnchoringTest.awaitReceipts(b, Duration.ofSeconds(60));
        await("readiness not UP after healing").atMost(Duration.ofSeconds(30)).until(() -> "UP".equals(anchoringCheck()));
        assertThat(metric("anchor_nonce_gaps_total")).isGreaterThan(gapsBefore);
        // A's confirmed transaction was sent again (same bytes): its anchors are back on this chain, once
        await("A's anchors not restored").atMost(Duration.ofSeconds(10)).until(() -> ChainView.logsFor(AnchorChainTestResource.contract(), hashA).size() == 2);
        // a second anchor would be mined and published within a few blocks: none may appear
        await("A and B anchored once").during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertAnchoredOnce(hashA, a);
            assertAnchoredOnce(hashB, b);
        });
        await("the chain's nonce does not meet the stored next nonce").atMost(Duration.ofSeconds(15)).until(() -> ChainView.transactionCount(AnvilNode.DEV_ADDRESS_0)
                == pool.query("select next_nonce from signer_nonce").execute().await().atMost(Duration.ofSeconds(5)).iterator().next().getLong(0));
    }

    @Test
    void noncesTheChainNeverSawAreFilledWithNoOps() {
        // The stored nonce ran ahead of the chain by two with no transaction of ours for those nonces
        // (a database restored from elsewhere, another tool that allocated and never sent): the next batch
        // is signed above the chain's nonce.
        await("open transactions remain from before").atMost(Duration.ofSeconds(30)).until(() -> count("select count(*) from anchor_tx where status = 'SIGNED'") == 0);
        pool.query("update signer_nonce set next_nonce = next_nonce + 2").execute().await().atMost(Duration.ofSeconds(5));
        double noopsBefore = metric("anchor_nonce_refilled_total", "kind=\"noop\"");
        String hash = KafkaIo.randomHash();
        List<MandateEvent> c = publishFlow(hash);
        AnchoringTest.awaitReceipts(c, Duration.ofSeconds(60));
        assertThat(metric("anchor_nonce_refilled_total", "kind=\"noop\"")).isEqualTo(noopsBefore + 2);
        // a second anchor would be mined and published within a few blocks: none may appear
        await("C anchored once").during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertAnchoredOnce(hash, c));
        await("the chain's nonce does not meet the stored next nonce").atMost(Duration.ofSeconds(15)).until(() -> ChainView.transactionCount(AnvilNode.DEV_ADDRESS_0)
                == pool.query("select next_nonce from signer_nonce").execute().await().atMost(Duration.ofSeconds(5)).iterator().next().getLong(0));
    }

    private long count(String sql) {
        return pool.query(sql).execute().await().atMost(Duration.ofSeconds(5)).iterator().next().getLong(0);
    }

    private static double metric(String name) {
        return metric(name, "");
    }

    /** Sum of a metric's series whose line contains {@code label} (e.g. {@code kind="noop"}). */
    private static double metric(String name, String label) {
        return given().get("/q/metrics").asString().lines()
                .filter(l -> (l.startsWith(name + " ") || l.startsWith(name + "{")) && l.contains(label))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }
}
