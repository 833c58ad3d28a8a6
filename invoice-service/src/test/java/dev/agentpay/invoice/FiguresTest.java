package dev.agentpay.invoice;

import static dev.agentpay.invoice.TestSupport.create;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.commons.events.ChainTransferEvent;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The figures quoted in the README, measured on the real broker and database: time from a watcher
 * event being produced to {@code GET} showing {@code SETTLED}, and sequential invoice creation rate.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class FiguresTest {

    @Inject
    PartnerRegistry registry;

    @Test
    void settlementVisibleThroughGetShortlyAfterTheTransferEvent() {
        String key = TestSupport.partner(registry);
        List<Long> millis = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            JsonPath inv = create(key, "{\"amount\": " + (3 + i) + ", \"chain\": \"arbitrum\"}");
            String id = inv.getString("data.id");
            BigInteger payable = new BigInteger(inv.getString("data.paymentDetails.payableAtomic"));
            long t0 = System.nanoTime();
            TestSupport.publish(TestSupport.transfer(ChainTransferEvent.DETECTED, "arbitrum", TestSupport.txHash(),
                    inv.getString("data.paymentDetails.paymentAddress"), "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", payable, null));
            while (!"SETTLED".equals(TestSupport.get(key, id).getString("data.status"))) {
                assertThat(System.nanoTime() - t0).isLessThan(20_000_000_000L);
            }
            millis.add((System.nanoTime() - t0) / 1_000_000);
        }
        Collections.sort(millis);
        System.out.printf(Locale.ROOT, "event produced -> SETTLED via GET: p50 %d ms, p99 %d ms, max %d ms (n=%d)%n",
                millis.get(millis.size() / 2), millis.get((int) Math.ceil(millis.size() * 0.99) - 1),
                millis.get(millis.size() - 1), millis.size());
    }

    @Test
    void invoiceCreationRate() throws Exception {
        String key = TestSupport.partner(registry);
        String url = "http://localhost:" + io.restassured.RestAssured.port + "/v1/invoices";
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        String[] chains = {"base", "polygon", "arbitrum", "skale", "solana"};
        int n = 400;
        int threads = 8;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        java.util.concurrent.atomic.AtomicInteger created = new java.util.concurrent.atomic.AtomicInteger();
        List<Long> millis = Collections.synchronizedList(new ArrayList<>());
        long t0 = System.nanoTime();
        List<java.util.concurrent.Future<?>> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String body = "{\"amount\": " + (100 + i) + ".25, \"chain\": \"" + chains[i % chains.length] + "\"}";
            all.add(pool.submit(() -> {
                long s0 = System.nanoTime();
                var res = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url))
                        .header("x-api-key", key).header("content-type", "application/json")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(),
                        java.net.http.HttpResponse.BodyHandlers.ofString());
                millis.add((System.nanoTime() - s0) / 1_000_000);
                if (res.statusCode() == 201) {
                    created.incrementAndGet();
                }
                return null;
            }));
        }
        for (var f : all) {
            f.get();
        }
        double s = (System.nanoTime() - t0) / 1e9;
        pool.shutdown();
        Collections.sort(millis);
        System.out.printf(Locale.ROOT, "invoice creation: %d POSTs from %d concurrent clients in %.2f s = %.0f/s (latency p50 %d ms, p99 %d ms)%n",
                n, threads, s, n / s, millis.get(n / 2), millis.get((int) Math.ceil(n * 0.99) - 1));
        assertThat(created.get()).isEqualTo(n);
    }
}
