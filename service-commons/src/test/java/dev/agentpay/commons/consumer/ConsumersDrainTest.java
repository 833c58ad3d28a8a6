package dev.agentpay.commons.consumer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.helpers.test.UniAssertSubscriber;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The consumer discipline's drain on SIGTERM: the batch being applied finishes (its offset can commit when the consumer
 * closes), no record starts afterwards (it is held, unacknowledged, for the partition's next owner), and the wait is
 * bounded.
 */
class ConsumersDrainTest {

    static final Consumer C = new Consumer("drain-test", "dlt.drain-test");

    private static Consumers consumers() {
        Consumers c = new Consumers();
        c.registry = new SimpleMeterRegistry();
        c.config = new ConsumerConfig() {
            public Duration initialBackoff() {
                return Duration.ofMillis(10);
            }

            public Duration maxBackoff() {
                return Duration.ofMillis(50);
            }

            public Duration stallAfter() {
                return Duration.ofSeconds(30);
            }

            public Duration processedRetention() {
                return Duration.ofDays(8);
            }

            public Optional<String> processedRetentionPerConsumer() {
                return Optional.empty();
            }

            public Duration drainTimeout() {
                return Duration.ofSeconds(5);
            }

            public int pruneBatchSize() {
                return 100;
            }
        };
        return c;
    }

    @Test
    void theBatchInHandFinishesAndNothingStartsAfterwards() throws Exception {
        Consumers consumers = consumers();
        CompletableFuture<String> database = new CompletableFuture<>();
        UniAssertSubscriber<String> inHand = consumers.untilApplied(C, () -> Uni.createFrom().completionStage(database))
                .subscribe().withSubscriber(UniAssertSubscriber.create());
        assertThat(consumers.applying()).isEqualTo(1);

        CompletableFuture<Boolean> drained = CompletableFuture.supplyAsync(() -> consumers.drain(Duration.ofSeconds(10)));
        // the drain waits for the batch in hand
        assertThat(drained).isNotDone();
        database.complete("committed");
        assertThat(drained.get(10, TimeUnit.SECONDS)).isTrue();
        inHand.assertCompleted().assertItem("committed");

        // a batch that would start now is held: its work never runs and it never completes (never acknowledged)
        AtomicInteger ran = new AtomicInteger();
        UniAssertSubscriber<Object> later = consumers.untilApplied(C, () -> {
            ran.incrementAndGet();
            return Uni.createFrom().item("applied");
        }).subscribe().withSubscriber(UniAssertSubscriber.create());
        later.assertNotTerminated();
        assertThat(ran).hasValue(0);
        assertThat(consumers.applying()).isZero();
    }

    @Test
    void aFailingBatchStillRetriesDuringTheDrainAndTheWaitIsBounded() {
        Consumers consumers = consumers();
        AtomicInteger tries = new AtomicInteger();
        UniAssertSubscriber<Object> stuck = consumers.untilApplied(C, () -> {
            tries.incrementAndGet();
            return Uni.createFrom().failure(new IllegalStateException("database away"));
        }).subscribe().withSubscriber(UniAssertSubscriber.create());

        assertThat(consumers.drain(Duration.ofMillis(300))).as("a batch is still being applied").isFalse();
        stuck.assertNotTerminated();
        assertThat(tries.get()).as("retried while draining").isGreaterThan(1);
        assertThat(consumers.applying()).isEqualTo(1);
        stuck.cancel();
    }

    @Test
    void withNothingInFlightTheDrainReturnsAtOnce() {
        assertThat(consumers().drain(Duration.ofSeconds(5))).isTrue();
    }

    @Test
    void onlyAGroupOfThisInstanceAloneStaysUntilTheExit() {
        String uuid = "5f0c2a9e-1b7d-4c41-9d8e-2f6a1c3b7e90";
        assertThat(Consumers.ownGroup(Optional.of("registry-" + uuid), uuid)).as("the partner registry's group").isTrue();
        assertThat(Consumers.ownGroup(Optional.of("mandate-service.anchor-receipts"), uuid)).as("a shared group").isFalse();
        assertThat(Consumers.ownGroup(Optional.empty(), uuid)).as("no group configured (the channel's default)").isFalse();
        assertThat(Consumers.ownGroup(Optional.of("registry-" + uuid), null)).as("no instance id known").isFalse();
        assertThat(Consumers.ownGroup(Optional.of("registry-"), "")).as("a blank instance id").isFalse();
    }
}
