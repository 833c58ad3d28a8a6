package dev.agentpay.settlement.watcher.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The per-chain lanes of the scanners and the sweeper, without Quarkus. */
class SerialLanesTest {

    private static final Duration WAIT = Duration.ofSeconds(5);

    @Test
    void workOnOneLaneRunsOneAtATimeInOrderWhateverTheOutcome() {
        SerialLanes<String> lanes = new SerialLanes<>();
        CompletableFuture<Void> gate = new CompletableFuture<>();
        List<String> log = new CopyOnWriteArrayList<>();
        Uni<String> first = lanes.run("base", () -> {
            log.add("first started");
            return Uni.createFrom().completionStage(gate).map(x -> "first");
        });
        Uni<String> failing = lanes.run("base", () -> {
            log.add("second started");
            return Uni.createFrom().failure(new IllegalStateException("boom"));
        });
        Uni<String> third = lanes.run("base", () -> {
            log.add("third started");
            return Uni.createFrom().item("third");
        });
        CompletableFuture<String> f1 = first.subscribeAsCompletionStage().toCompletableFuture();
        CompletableFuture<String> f2 = failing.subscribeAsCompletionStage().toCompletableFuture();
        CompletableFuture<String> f3 = third.subscribeAsCompletionStage().toCompletableFuture();
        assertThat(log).containsExactly("first started"); // the others wait for the first
        assertThat(lanes.busy("base")).isTrue();
        CompletableFuture<Void> idle = lanes.idle("base").subscribeAsCompletionStage().toCompletableFuture();
        assertThat(idle).isNotDone();

        gate.complete(null);
        assertThat(f1.join()).isEqualTo("first");
        assertThat(f2).isCompletedExceptionally();
        assertThat(f3.join()).isEqualTo("third");
        assertThat(log).containsExactly("first started", "second started", "third started");
        assertThat(idle).succeedsWithin(WAIT);
        assertThat(lanes.busy("base")).isFalse();
    }

    @Test
    void anotherLaneIsNotHeldUpByABusyOne() {
        SerialLanes<String> lanes = new SerialLanes<>();
        CompletableFuture<Void> never = new CompletableFuture<>();
        lanes.run("polygon", () -> Uni.createFrom().completionStage(never)).subscribe().with(x -> { });
        AtomicInteger ran = new AtomicInteger();
        String other = lanes.run("base", () -> Uni.createFrom().item(() -> "base " + ran.incrementAndGet())).await().atMost(WAIT);
        assertThat(other).isEqualTo("base 1");
        assertThat(lanes.busy("polygon")).isTrue();
        never.complete(null);
        lanes.idle("polygon").await().atMost(WAIT);
        assertThat(lanes.busy("polygon")).isFalse();
    }

    @Test
    void loopsRunDependentStepsUntilOneSaysDoneWithoutRecursion() {
        AtomicInteger steps = new AtomicInteger();
        Loops.whileMore(() -> Uni.createFrom().item(() -> steps.incrementAndGet() < 20_000)).await().atMost(WAIT);
        assertThat(steps).hasValue(20_000);
    }
}
