package dev.agentpay.commons.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.mutiny.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WakeLoopTest {

    private Vertx vertx;

    @AfterEach
    void close() {
        if (vertx != null) {
            vertx.closeAndAwait();
        }
    }

    /** A round that completes only when the test says so. */
    private static final class HeldRounds {
        final AtomicInteger started = new AtomicInteger();
        final ConcurrentLinkedQueue<UniEmitter<? super Boolean>> open = new ConcurrentLinkedQueue<>();

        Uni<Boolean> round() {
            return Uni.createFrom().emitter(em -> {
                started.incrementAndGet();
                open.add(em);
            });
        }

        void finish(boolean more) {
            open.poll().complete(more);
        }
    }

    @Test
    void wakesDuringARoundCoalesceIntoExactlyOneFollowUp() {
        HeldRounds rounds = new HeldRounds();
        WakeLoop loop = new WakeLoop("test", null, rounds::round).start();
        assertThat(rounds.started).hasValue(1);
        for (int i = 0; i < 10; i++) {
            loop.wake();
        }
        assertThat(rounds.started).as("one round at a time").hasValue(1);
        rounds.finish(false);
        assertThat(rounds.started).as("ten wakes: one follow-up").hasValue(2);
        rounds.finish(false);
        assertThat(rounds.started).as("nothing asked since: idle").hasValue(2);
        assertThat(rounds.open).isEmpty();
    }

    @Test
    void aRoundThatFilledItsBatchRunsAgainAtOnce() {
        AtomicInteger left = new AtomicInteger(5);
        AtomicInteger runs = new AtomicInteger();
        new WakeLoop("drain", null, () -> {
            runs.incrementAndGet();
            return Uni.createFrom().item(left.decrementAndGet() > 0);
        }).start();
        assertThat(runs).hasValue(5);
    }

    @Test
    void nothingRunsBeforeStartOrAfterStop() {
        AtomicInteger runs = new AtomicInteger();
        WakeLoop loop = counting(null, runs);
        loop.wake();
        assertThat(runs).hasValue(0);
        loop.start();
        assertThat(runs).hasValue(1);
        loop.stop();
        loop.wake();
        assertThat(runs).hasValue(1);
        assertThat(loop.active()).isFalse();
    }

    @Test
    void aFailedRoundIsReportedAndTheNextWakeRunsAgain() {
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        AtomicInteger runs = new AtomicInteger();
        WakeLoop loop = new WakeLoop("failing", null, () -> runs.incrementAndGet() == 1
                ? Uni.createFrom().failure(new IllegalStateException("database away"))
                : Uni.createFrom().item(false)).onFailure(failures::add).start();
        assertThat(failures).singleElement().extracting(Throwable::getMessage).isEqualTo("database away");
        assertThat(runs).as("a failure is not retried at once").hasValue(1);
        loop.wake();
        assertThat(runs).hasValue(2);
        assertThat(failures).hasSize(1);
    }

    @Test
    void aRoundThatThrowsInsteadOfFailingIsReportedToo() {
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        new WakeLoop("throwing", null, () -> {
            throw new IllegalArgumentException("bug");
        }).onFailure(failures::add).start();
        assertThat(failures).singleElement().isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void wakeAndAwaitCompletesAfterARoundThatStartedAfterTheCall() {
        HeldRounds rounds = new HeldRounds();
        WakeLoop loop = new WakeLoop("await", null, rounds::round).start();
        // a round is running: the caller must wait for the next one, not this one
        Uni<Void> done = loop.wakeAndAwait().memoize().indefinitely();
        AtomicInteger completed = new AtomicInteger();
        done.subscribe().with(v -> completed.incrementAndGet());
        rounds.finish(false);
        assertThat(completed).as("the round in flight started before the call").hasValue(0);
        assertThat(rounds.started).hasValue(2);
        rounds.finish(false);
        assertThat(completed).hasValue(1);
    }

    @Test
    void wakeAndAwaitFailsWithTheRoundsFailureAndOnAStoppedLoop() {
        WakeLoop loop = new WakeLoop("await-fail", null, () -> Uni.createFrom().failure(new IllegalStateException("boom")))
                .onFailure(e -> { }).start();
        assertThatThrownBy(() -> loop.wakeAndAwait().await().atMost(Duration.ofSeconds(5))).hasMessage("boom");
        loop.stop();
        assertThatThrownBy(() -> loop.wakeAndAwait().await().atMost(Duration.ofSeconds(5))).hasMessageContaining("not running");
    }

    @Test
    void anEarlierTimerIsNotHeldBackByALaterPendingOne() throws Exception {
        vertx = Vertx.vertx();
        AtomicInteger runs = new AtomicInteger();
        WakeLoop loop = counting(vertx, runs).start();
        assertThat(runs).hasValue(1);
        loop.wakeIn(Duration.ofSeconds(30));
        loop.wakeIn(Duration.ofMillis(50)); // earlier than the pending one: gets its own timer
        await(() -> runs.get() == 2, Duration.ofSeconds(5));
        loop.stop();
    }

    @Test
    void everyWakesPeriodicallyUntilStopped() throws Exception {
        vertx = Vertx.vertx();
        AtomicInteger runs = new AtomicInteger();
        WakeLoop loop = counting(vertx, runs).every(Duration.ofMillis(20)).start();
        await(() -> runs.get() >= 4, Duration.ofSeconds(5));
        loop.stop();
        int atStop = runs.get();
        // ten periods pass on the same clock (a marker timer on Vert.x): a periodic wake left would have run
        java.util.concurrent.CountDownLatch marker = new java.util.concurrent.CountDownLatch(1);
        vertx.setTimer(200, x -> marker.countDown());
        assertThat(marker.await(5, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(runs).as("no periodic wake after stop").hasValue(atStop);
    }

    /** A loop whose rounds only count themselves. */
    private static WakeLoop counting(Vertx vertx, AtomicInteger runs) {
        return new WakeLoop("counting", vertx, () -> {
            runs.incrementAndGet();
            return Uni.createFrom().item(false);
        });
    }

    /** Awaitility, polling the condition until it holds or the timeout fails the test. */
    private static void await(java.util.function.BooleanSupplier condition, Duration timeout) {
        org.awaitility.Awaitility.await().atMost(timeout).pollInterval(Duration.ofMillis(5)).until(condition::getAsBoolean);
    }
}
