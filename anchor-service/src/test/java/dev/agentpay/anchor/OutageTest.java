package dev.agentpay.anchor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.anchor.support.AnchorChainTestResource;
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
        await("no batch stored").atMost(Duration.ofSeconds(30)).until(() -> sent(before) > 0);
        proxy.down();

        List<MandateEvent> during = transitions(40);
        during.forEach(KafkaIo::publish);
        KafkaIo.flush();
        await("no receipt for a transition published during the outage").during(OUTAGE).atMost(OUTAGE.plusSeconds(10))
                .until(() -> during.stream().noneMatch(e -> !KafkaIo.receipts(e.transitionId()).isEmpty()));

        proxy.up();
        List<MandateEvent> all = new ArrayList<>(before);
        all.addAll(during);
        AnchoringTest.awaitReceipts(all, Duration.ofSeconds(60));
        // a second anchor would be mined and published within a few blocks: none may appear
        await("each transition anchored once").during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            for (MandateEvent e : all) {
                assertThat(KafkaIo.receipts(e.transitionId())).as(e.transitionId()).hasSize(1);
            }
        });
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
