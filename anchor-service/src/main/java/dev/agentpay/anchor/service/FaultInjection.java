package dev.agentpay.anchor.service;

import jakarta.enterprise.context.ApplicationScoped;

/**
 * Crash points for the restart tests: a test arms one point and the pipeline stops there as if the
 * process had died, leaving the database exactly as a crash would. Nothing in configuration can arm
 * it; production code never does.
 */
@ApplicationScoped
public class FaultInjection {

    /** Where the pipeline can be made to "die". */
    public enum Point {
        /** The signed transaction is stored, not broadcast. */
        AFTER_STORE,
        /** The transaction is broadcast (and mined on an instant chain), its receipt not recorded. */
        AFTER_BROADCAST
    }

    /** Thrown at an armed point. */
    public static final class SimulatedCrash extends RuntimeException {
        SimulatedCrash(Point p) {
            super("simulated crash at " + p);
        }
    }

    private volatile Point armed;

    public void arm(Point p) {
        armed = p;
    }

    void trip(Point p) {
        if (armed == p) {
            armed = null;
            throw new SimulatedCrash(p);
        }
    }
}
