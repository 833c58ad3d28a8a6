package dev.agentpay.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The driver counts what it did and measures latency from the intended start. */
class LoadDriverTest {

    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() {
        vertx.close();
    }

    /** An operation that completes after {@code ms} milliseconds on a Vert.x timer. */
    private Future<?> delayed(long ms) {
        Promise<Void> p = Promise.promise();
        vertx.setTimer(ms, id -> p.complete());
        return p.future();
    }

    @Test
    void closedLoopKeepsConcurrencyAndMeasuresLatency() {
        LoadDriver.Result r = new LoadDriver(vertx).closedLoop("sleep", 4, Duration.ofMillis(100), Duration.ofSeconds(1), () -> delayed(20));
        // 4 in flight, ~20 ms each: about 200 ops/s; latency near 20 ms.
        assertThat(r.throughput()).isBetween(40.0, 210.0);
        assertThat(r.p50()).isBetween(19.0, 100.0);
        assertThat(r.errors()).isZero();
    }

    @Test
    void constantRateIssuesTheScheduleAndCountsFailures() {
        AtomicInteger n = new AtomicInteger();
        LoadDriver.Result r = new LoadDriver(vertx).constantRate("mixed", 100, Duration.ZERO, Duration.ofSeconds(2),
                () -> n.incrementAndGet() % 10 == 0 ? Future.failedFuture("boom") : delayed(5));
        assertThat(r.ops()).isEqualTo(200);
        assertThat(r.errors()).isEqualTo(20);
        assertThat(r.p50()).isGreaterThanOrEqualTo(5.0);
    }

    @Test
    void constantRateWarmsUpWithoutRecordingIt() {
        AtomicInteger n = new AtomicInteger();
        // the first 100 calls (the warm-up second) are slow and fail; only the 100 after them count
        LoadDriver.Result r = new LoadDriver(vertx).constantRate("warm", 100, Duration.ofSeconds(1), Duration.ofSeconds(1),
                () -> n.incrementAndGet() <= 100 ? Future.failedFuture("cold") : delayed(5));
        assertThat(n.get()).isEqualTo(200);
        assertThat(r.ops()).isEqualTo(100);
        assertThat(r.errors()).isZero();
    }

    @Test
    void canonicalStringMatchesTheSpecShape() {
        var m = new io.vertx.core.json.JsonObject().put("id", "mnd_1").put("proposer_agent_id", "a").put("counterparty_agent_id", "b")
                .put("scope", "s").put("expires_at", "2030-01-01T00:00:00Z")
                .put("terms", new io.vertx.core.json.JsonObject().put("currency", "USDC").put("amount", 100));
        assertThat(Scenarios.canonical(m)).isEqualTo(
                "{\"counterparty_agent_id\":\"b\",\"expires_at\":\"2030-01-01T00:00:00.000Z\",\"id\":\"mnd_1\","
                        + "\"proposer_agent_id\":\"a\",\"scope\":\"s\",\"terms\":{\"amount\":100,\"currency\":\"USDC\"}}");
    }
}
