package dev.agentpay.webhook.delivery.service;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.webhook.subscription.service.SubscriptionService;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The delivery history keeps what ended within the retention and every pending delivery, and nothing else; a deleted
 * subscription leaves no event behind that only its deliveries referred to.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class DeliveryHistoryPrunerTest {

    @Inject
    DeliveryHistoryPruner pruner;
    @Inject
    Pool pool;
    @Inject
    SubscriptionService subscriptions;

    @Test
    void deletesWhatEndedBeforeTheRetentionWithItsAttemptsAndKeepsTheRest() {
        Instant now = Instant.now();
        UUID s1 = subscription();
        UUID s2 = subscription();
        UUID onlyOld = event(now.minus(Duration.ofDays(31)));
        UUID shared = event(now.minus(Duration.ofDays(40)));
        UUID pendingOld = event(now.minus(Duration.ofDays(60)));
        UUID recent = event(now.minus(Duration.ofDays(29)));
        UUID d1 = delivery(s1, onlyOld, "succeeded", now.minus(Duration.ofDays(31)));
        attempt(d1);
        attempt(d1);
        UUID d2 = delivery(s1, shared, "failed", now.minus(Duration.ofDays(40)));
        attempt(d2);
        UUID d3 = delivery(s2, shared, "succeeded", now.minus(Duration.ofDays(1)));
        UUID d4 = delivery(s1, pendingOld, "pending", null);
        UUID d5 = delivery(s1, recent, "succeeded", now.minus(Duration.ofDays(29)));

        // one delivery per transaction: the batches go on until nothing past the retention is left
        int pruned = pruner.prune(now, Duration.ofDays(30), 1).await().atMost(Duration.ofSeconds(30));

        assertThat(pruned).isEqualTo(2);
        assertThat(ids("select id from webhook_delivery where id = any($1)", d1, d2, d3, d4, d5)).containsExactlyInAnyOrder(d3, d4, d5);
        assertThat(ids("select delivery_id from webhook_attempt where delivery_id = any($1)", d1, d2)).isEmpty();
        // an event goes with its last delivery; one still referred to stays
        assertThat(ids("select id from webhook_event where id = any($1)", onlyOld, shared, pendingOld, recent))
                .containsExactlyInAnyOrder(shared, pendingOld, recent);
        // a second run finds nothing
        assertThat(pruner.prune(now, Duration.ofDays(30), 1).await().atMost(Duration.ofSeconds(30))).isZero();
    }

    @Test
    void deletingASubscriptionTakesTheEventsOnlyItsDeliveriesReferredTo() {
        Instant now = Instant.now();
        UUID s1 = subscription();
        UUID s2 = subscription();
        UUID onlyS1 = event(now);
        UUID both = event(now);
        UUID d1 = delivery(s1, onlyS1, "succeeded", now);
        attempt(d1);
        UUID d2 = delivery(s1, both, "pending", null);
        UUID d3 = delivery(s2, both, "succeeded", now);

        subscriptions.delete("prune-partner", s1).await().atMost(Duration.ofSeconds(30));

        assertThat(ids("select id from webhook_delivery where id = any($1)", d1, d2, d3)).containsExactly(d3);
        assertThat(ids("select id from webhook_event where id = any($1)", onlyS1, both)).containsExactly(both);
        assertThat(ids("select id from webhook_subscription where id = any($1)", s1, s2)).containsExactly(s2);
    }

    private UUID subscription() {
        UUID id = UUID.randomUUID();
        pool.preparedQuery("insert into webhook_subscription (id, partner_id, url, events, secret) values ($1, $2, $3, $4, $5)")
                .execute(Tuple.of(id, "prune-partner", "https://example.com/hooks/" + id, new String[] {"mandate.proposed"},
                        "raw-Secret-for-prune-tests-4242"))
                .await().atMost(Duration.ofSeconds(10));
        return id;
    }

    private UUID event(Instant at) {
        UUID id = UUID.randomUUID();
        pool.preparedQuery("insert into webhook_event (id, type, aggregate_id, partner_id, body, created_at) values ($1, 'mandate.proposed', $2, 'prune-partner', '{}', $3)")
                .execute(Tuple.of(id, "mnd_" + id, at.atOffset(ZoneOffset.UTC)))
                .await().atMost(Duration.ofSeconds(10));
        return id;
    }

    private UUID delivery(UUID subscription, UUID event, String status, Instant completedAt) {
        UUID id = UUID.randomUUID();
        OffsetDateTime completed = completedAt == null ? null : completedAt.atOffset(ZoneOffset.UTC);
        pool.preparedQuery("insert into webhook_delivery (id, subscription_id, event_id, ordering_key, status, completed_at, created_at)"
                        + " values ($1, $2, $3, 'k', $4, $5, coalesce($5, now() - interval '60 days'))")
                .execute(Tuple.of(id, subscription, event, status, completed))
                .await().atMost(Duration.ofSeconds(10));
        return id;
    }

    private void attempt(UUID delivery) {
        pool.preparedQuery("insert into webhook_attempt (delivery_id, attempt, manual, started_at, outcome, latency_ms)"
                        + " values ($1, 1, false, now() - interval '40 days', 'succeeded', 5)")
                .execute(Tuple.of(delivery)).await().atMost(Duration.ofSeconds(10));
    }

    private List<UUID> ids(String sql, UUID... among) {
        List<UUID> out = new ArrayList<>();
        pool.preparedQuery(sql).execute(Tuple.of(among)).await().atMost(Duration.ofSeconds(10))
                .forEach(r -> out.add(r.getUUID(0)));
        return out;
    }
}
