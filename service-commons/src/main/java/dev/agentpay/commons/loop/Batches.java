package dev.agentpay.commons.loop;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Housekeeping done a batch at a time until none is left (mandate expiry, dispute deadlines, pruning), and the
 * scheduled run that drives it. Short batches keep transactions and locks short, and draining until a short batch
 * lets an instance that was down catch up on its first run; a failed run is logged and left to the next one. One
 * copy of that loop and that run for every such job (issue 33).
 */
public final class Batches {

    private Batches() {
    }

    /**
     * Runs {@code batch} again and again while it handled a full {@code size} (there may be more), and once more
     * after the last full one; emits how many all the batches handled together.
     */
    public static Uni<Integer> untilShort(Supplier<Uni<Integer>> batch, int size) {
        return Multi.createBy().repeating().<Integer>uni(batch::get).whilst(n -> n >= size)
                .collect().with(Collectors.summingInt(Integer::intValue));
    }

    /**
     * One scheduled run of {@code run}: a count above 0 is {@code report}ed; a failure is logged as a warning with
     * {@code failure} (a format whose one {@code %s} is the error's message) and ends the run normally, so the
     * scheduler keeps going and the next run retries.
     */
    public static Uni<Void> scheduledRun(Uni<Integer> run, IntConsumer report, Logger log, String failure) {
        return run.invoke(n -> {
            if (n > 0) {
                report.accept(n);
            }
        }).onFailure().invoke(e -> log.warnf(failure, e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
