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
                    "0x0000000000000000000000000000000000042161", "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", payable, null));
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
    void invoiceCreationRate() {
        String key = TestSupport.partner(registry);
        int n = 300;
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            create(key, "{\"amount\": 10, \"chain\": \"base\"}");
        }
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf(Locale.ROOT, "invoice creation: %d sequential POSTs (same amount, one chain) in %.2f s = %.0f/s%n", n, s, n / s);
        assertThat(n / s).isPositive();
    }
}
