package dev.agentpay.anchor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.anchor.client.FaultInjection;
import dev.agentpay.anchor.anchoring.service.AnchorPipeline;
import dev.agentpay.anchor.anchoring.service.SignerLease;
import dev.agentpay.anchor.support.AnchorChainTestResource;
import dev.agentpay.anchor.support.ChainView;
import dev.agentpay.anchor.support.KafkaIo;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.commons.lease.LeaseLostException;
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
import java.util.concurrent.CompletableFuture;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Several instances, one signer (README, "Several instances"): this instance is "frozen" in the middle of
 * a batch (its gas estimate held) while another instance takes the signer's lease over; when it wakes, its
 * batch is refused by the fencing token in the transaction that would have signed it (no transaction
 * stored, no nonce taken), it stops anchoring, and once the lease is free again it takes it with a new
 * token and anchors the transitions exactly once.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(AnchorChainTestResource.class)
class SignerFencingTest {

    @Inject
    AnchorPipeline pipeline;

    @Inject
    SignerLease lease;

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
        faults.holdEstimates(null);
        pool.query("update platform_lease set expires_at = now() where holder = 'another-instance'").execute().await().atMost(Duration.ofSeconds(5));
        await("signer held again").atMost(Duration.ofSeconds(15)).until(pipeline::active);
    }

    @Test
    void aFrozenBatcherThatWakesAfterTheSignerMovedSignsNothing() {
        await("signer held").atMost(Duration.ofSeconds(15)).until(pipeline::active);
        long token = lease.token();
        long txsBefore = count("select count(*) from anchor_tx");
        long nonceBefore = one("select next_nonce from signer_nonce").getLong(0);

        CompletableFuture<Void> gate = new CompletableFuture<>();
        faults.holdEstimates(gate);
        String hash = KafkaIo.randomHash();
        List<MandateEvent> events = KafkaIo.flow(KafkaIo.mandateId(), hash, "proposed", "signed_by_proposer", "signed_by_both");
        events.forEach(KafkaIo::publish);
        KafkaIo.flush();
        List<MandateEvent> transitions = events.subList(1, 3);
        await("intents stored").atMost(Duration.ofSeconds(20)).until(() ->
                count("select count(*) from anchor_intent where transition_id = any($1)", (Object) ids(transitions)) == 2);

        // while the batch waits, another instance takes the signer over (its holder row, a new token, a long lease)
        pool.preparedQuery("update platform_lease set holder = 'another-instance', token = token + 1,"
                        + " expires_at = now() + interval '1 hour' where name = $1")
                .execute(Tuple.of(SignerLease.NAME)).await().atMost(Duration.ofSeconds(5));
        await("this instance noticed it lost the signer").atMost(Duration.ofSeconds(10)).until(() -> !pipeline.active());
        // the fence itself: the old token is refused in a transaction
        Assertions.assertThatThrownBy(() -> pool.withTransaction(c -> lease.fence(c, token)).await().atMost(Duration.ofSeconds(5)))
                .isInstanceOf(LeaseLostException.class);

        gate.complete(null); // the frozen batch wakes up and tries to sign
        await("nothing signed by the stale batch").during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(6)).until(() ->
                count("select count(*) from anchor_tx") == txsBefore
                        && one("select next_nonce from signer_nonce").getLong(0) == nonceBefore
                        && count("select count(*) from anchor_intent where transition_id = any($1) and status = 'PENDING'", (Object) ids(transitions)) == 2);
        faults.holdEstimates(null);

        // the other instance goes away (its lease expires): this one takes the signer with a new token
        pool.query("update platform_lease set expires_at = now() where holder = 'another-instance'").execute().await().atMost(Duration.ofSeconds(5));
        await("signer taken back").atMost(Duration.ofSeconds(10)).until(pipeline::active);
        assertThat(lease.token()).isEqualTo(token + 2);
        AnchoringTest.awaitReceipts(transitions, Duration.ofSeconds(30));
        await("each transition anchored once").during(Duration.ofMillis(2000)).atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            for (MandateEvent e : transitions) {
                assertThat(KafkaIo.receipts(e.transitionId())).hasSize(1);
            }
            assertThat(ChainView.logsFor(AnchorChainTestResource.contract(), hash)).hasSize(2);
        });
        await("no open transaction").atMost(Duration.ofSeconds(15)).until(() -> count("select count(*) from anchor_tx where status = 'SIGNED'") == 0);
        assertThat(one("select next_nonce from signer_nonce").getLong(0)).isEqualTo(ChainView.transactionCount(AnvilNode.DEV_ADDRESS_0));
    }

    private static String[] ids(List<MandateEvent> events) {
        return events.stream().map(MandateEvent::transitionId).toArray(String[]::new);
    }

    private Row one(String sql, Object... params) {
        return pool.preparedQuery(sql).execute(Tuple.from(params)).await().atMost(Duration.ofSeconds(5)).iterator().next();
    }

    private long count(String sql, Object... params) {
        return one(sql, params).getLong(0);
    }
}
