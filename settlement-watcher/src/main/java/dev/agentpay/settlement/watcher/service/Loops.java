package dev.agentpay.settlement.watcher.service;

import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.util.function.Supplier;

/** Loops of dependent non-blocking steps (a range after a range, a page after a page), without recursion. */
public final class Loops {

    private Loops() {
    }

    /**
     * Runs {@code step} again and again, each run starting when the previous one answered, until one emits
     * {@code false} (nothing more to do); fails with the first failing step.
     */
    public static Uni<Void> whileMore(Supplier<Uni<Boolean>> step) {
        Supplier<Uni<? extends Boolean>> next = step::get;
        return Multi.createBy().repeating().<Boolean>uni(next).whilst(Boolean::booleanValue)
                .collect().last().replaceWithVoid();
    }
}
