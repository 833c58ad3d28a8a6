package dev.agentpay.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.commons.events.MandateEvent;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import dev.agentpay.webhook.support.Api;
import dev.agentpay.webhook.support.TestEvents;
import dev.agentpay.webhook.support.TestPartners.TestPartner;
import dev.agentpay.webhook.support.TestPartners;
import dev.agentpay.webhook.support.TestReceiver.Received;
import dev.agentpay.webhook.support.TestReceiver;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Volume: a burst of events fanned out to several subscriptions on a local 2xx receiver must arrive
 * exactly once each; reports deliveries per second and, for a paced stream, event-to-delivered
 * latency. Small by default so the suite stays quick; scale with {@code -Dbench.events=N
 * -Dbench.subscriptions=K -Dbench.paced=M}. Figures go to stdout and
 * {@code target/webhook-bench.txt}.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class DeliveryBenchTest {

    @Inject
    PartnerRegistry registry;

    @Test
    void burstIsDeliveredExactlyOnceAndPacedLatencyIsMeasured() throws Exception {
        int events = Integer.getInteger("bench.events", 500);
        int subs = Integer.getInteger("bench.subscriptions", 4);
        int paced = Integer.getInteger("bench.paced", 100);
        try (TestReceiver receiver = new TestReceiver()) {
            TestPartner p = TestPartners.register(registry);
            List<String> paths = new ArrayList<>();
            for (int i = 0; i < subs; i++) {
                String path = "/bench/" + i;
                paths.add(path);
                Api.subscribe(p, receiver.url(path), List.of("mandate.proposed"), "bench-Secret-0123456789abcdef");
            }

            // Burst: every event a different mandate, so ordering never serializes them.
            long t0 = System.currentTimeMillis();
            for (int i = 0; i < events; i++) {
                TestEvents.sendAsync(TestEvents.mandate("mandate.proposed", "mnd_" + UUID.randomUUID(), p.id()));
            }
            TestEvents.flush();
            long produced = System.currentTimeMillis();
            int expected = events * subs;
            await(expected + " deliveries").atMost(Duration.ofSeconds(Math.max(60, events / 20))).until(() -> receiver.total() >= expected);
            long firstAt = receiver.all().stream().mapToLong(Received::receivedAtMillis).min().orElseThrow();
            long lastAt = receiver.all().stream().mapToLong(Received::receivedAtMillis).max().orElseThrow();
            await("no duplicates after the burst").during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(10))
                    .until(() -> receiver.total() == expected);
            Map<String, Integer> perKey = new HashMap<>();
            receiver.all().forEach(r -> perKey.merge(r.path() + " " + r.header("webhook-id"), 1, Integer::sum));
            assertThat(perKey).hasSize(expected).allSatisfy((k, n) -> assertThat(n).isEqualTo(1));
            double perSecond = expected * 1000.0 / Math.max(1, lastAt - t0);
            double drainPerSecond = expected * 1000.0 / Math.max(1, lastAt - firstAt);

            // Paced: one event every 20 ms to one subscription; latency from the event's occurredAt.
            String pacedPath = paths.get(0);
            int before = receiver.at(pacedPath).size();
            Map<String, Long> sentAt = new HashMap<>();
            for (int i = 0; i < paced; i++) {
                MandateEvent e = TestEvents.mandate("mandate.proposed", "mnd_" + UUID.randomUUID(), p.id());
                sentAt.put(e.eventId().toString(), e.occurredAt().toEpochMilli());
                TestEvents.sendAsync(e);
                Thread.sleep(20); // the pace of the paced run (50 events/s), not a wait for a condition
            }
            TestEvents.flush();
            await("paced deliveries").atMost(Duration.ofSeconds(60)).until(() -> receiver.at(pacedPath).size() >= before + paced);
            long[] lat = receiver.at(pacedPath).stream().filter(r -> sentAt.containsKey(r.header("webhook-id")))
                    .mapToLong(r -> r.receivedAtMillis() - sentAt.get(r.header("webhook-id"))).sorted().toArray();
            assertThat(lat).hasSize(paced);
            long p50 = lat[(int) Math.floor(0.50 * (lat.length - 1))];
            long p99 = lat[(int) Math.ceil(0.99 * (lat.length - 1))];
            String report = String.format(
                    "webhook bench: %d events x %d subscriptions = %d deliveries; produce %d ms; first event to last delivery %d ms"
                            + " => %.0f deliveries/s end to end, %.0f deliveries/s drain (first to last delivery)%n"
                            + "paced %d events at 50/s: event occurredAt -> received p50 %d ms, p99 %d ms, max %d ms%n",
                    events, subs, expected, produced - t0, lastAt - t0, perSecond, drainPerSecond, paced, p50, p99,
                    lat[lat.length - 1]);
            String metrics = io.restassured.RestAssured.get("/q/metrics").asString().lines()
                    .filter(l -> l.startsWith("webhook_") && !l.contains("bucket")).reduce("", (a, b) -> a + b + "\n");
            report = report + metrics;
            System.out.print(report);
            Files.writeString(Path.of("target/webhook-bench.txt"), report);
        }
    }
}
