package dev.agentpay.anchor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.anchor.support.AnchorChainTestResource;
import dev.agentpay.anchor.support.Await;
import dev.agentpay.anchor.support.ChainView;
import dev.agentpay.anchor.support.KafkaIo;
import dev.agentpay.anchor.support.TcpProxy;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The anchor RPC goes away for 30 s (connections refused, open ones cut) while a transaction is in
 * flight and more transitions arrive; when it is back, every transition is anchored exactly once.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(AnchorChainTestResource.class)
class OutageTest {

    /** How long the RPC stays unreachable (the issue asks for 30 s). */
    static final Duration OUTAGE = Duration.ofSeconds(Long.getLong("anchortest.outage-seconds", 30));

    @Inject
    Pool pool;

    @BeforeAll
    static void collect() {
        KafkaIo.startCollecting();
    }

    @AfterEach
    void restore() {
        AnchorChainTestResource.proxy().up();
    }

    @Test
    void rpcDownForThirtySecondsThenBackEverythingAnchoredOnce() {
        TcpProxy proxy = AnchorChainTestResource.proxy();
        List<MandateEvent> before = transitions(40);
        before.forEach(KafkaIo::publish);
        KafkaIo.flush();
        // cut the RPC as soon as the first batch is stored (its broadcast races the cut)
        Await.until(Duration.ofSeconds(30), () -> sent(before) > 0, () -> "no batch stored");
        proxy.down();

        List<MandateEvent> during = transitions(40);
        during.forEach(KafkaIo::publish);
        KafkaIo.flush();
        AnchoringTest.sleep(OUTAGE.toMillis());
        assertThat(during.stream().filter(e -> !KafkaIo.receipts(e.transitionId()).isEmpty())).isEmpty();

        proxy.up();
        List<MandateEvent> all = new ArrayList<>(before);
        all.addAll(during);
        AnchoringTest.awaitReceipts(all, Duration.ofSeconds(60));
        AnchoringTest.sleep(2500);
        for (MandateEvent e : all) {
            assertThat(KafkaIo.receipts(e.transitionId())).as(e.transitionId()).hasSize(1);
        }
        Map<String, Long> perHash = all.stream().collect(Collectors.groupingBy(MandateEvent::mandateHash, Collectors.counting()));
        perHash.forEach((hash, n) -> assertThat((long) ChainView.logsFor(AnchorChainTestResource.contract(), hash).size())
                .as(hash).isEqualTo(n));
    }

    private long sent(List<MandateEvent> events) {
        String[] ids = events.stream().map(MandateEvent::transitionId).toArray(String[]::new);
        return pool.preparedQuery("select count(*) from anchor_intent where transition_id = any($1) and status <> 'PENDING'")
                .execute(Tuple.of(ids)).await().atMost(Duration.ofSeconds(5)).iterator().next().getLong(0);
    }

    /** {@code n} transitions: pairs (signed_by_proposer, signed_by_both) of n/2 mandates. */
    static List<MandateEvent> transitions(int n) {
        List<MandateEvent> out = new ArrayList<>(n);
        for (int i = 0; i < n / 2; i++) {
            out.addAll(KafkaIo.flow(KafkaIo.mandateId(), KafkaIo.randomHash(), "proposed", "signed_by_proposer", "signed_by_both")
                    .subList(1, 3));
        }
        return out;
    }
}
