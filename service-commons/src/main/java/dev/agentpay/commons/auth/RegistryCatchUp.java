package dev.agentpay.commons.auth;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Whether the partner registry has read the {@code partners} topic up to where it ended when this
 * instance joined: before that, an unknown key may simply not have been read yet, so it must not be
 * answered with a 401. Latches once caught up (later records are ordinary updates).
 */
public final class RegistryCatchUp {

    private final Map<Integer, Long> target = new ConcurrentHashMap<>();
    private final Map<Integer, Long> next = new ConcurrentHashMap<>();
    private volatile boolean targetKnown;
    private volatile boolean caughtUp;

    /** Records a processed record's partition and offset. */
    public void processed(int partition, long offset) {
        next.merge(partition, offset + 1, Math::max);
        evaluate();
    }

    /** The end offsets per partition at assignment time (the first call wins). */
    public synchronized void target(Map<Integer, Long> endOffsets) {
        if (targetKnown) {
            return;
        }
        target.putAll(endOffsets);
        targetKnown = true;
        evaluate();
    }

    /** For deployments without the registry consumer (its records are applied some other way). */
    public void assumeCaughtUp() {
        caughtUp = true;
    }

    public boolean caughtUp() {
        return caughtUp;
    }

    private void evaluate() {
        if (caughtUp || !targetKnown) {
            return;
        }
        for (Map.Entry<Integer, Long> e : target.entrySet()) {
            if (e.getValue() > 0 && next.getOrDefault(e.getKey(), 0L) < e.getValue()) {
                return;
            }
        }
        caughtUp = true;
    }
}
