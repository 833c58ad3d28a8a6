package dev.agentpay.settlement.escrow.service;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which chains' escrow command rounds have been failing, since when and why (an RPC down, a database fault): a round
 * that fails is retried at the next tick without limit, and this is what makes the wait visible
 * ({@link EscrowReadiness}). A round that completes, whatever its outcome, clears its chain.
 */
public final class EscrowStalls {

    /** The first failure of the current run of failures, and the latest reason. */
    record Failing(Instant since, String reason) {
    }

    private final Map<String, Failing> failing = new ConcurrentHashMap<>();

    void failed(String chain, String reason, Instant now) {
        failing.merge(chain, new Failing(now, reason), (old, fresh) -> new Failing(old.since(), fresh.reason()));
    }

    void succeeded(String chain) {
        failing.remove(chain);
    }

    /** The chains whose rounds have failed without a success for at least {@code after}: chain -> "since ...: reason". */
    public Map<String, String> stalled(Instant now, Duration after) {
        Map<String, String> out = new TreeMap<>();
        failing.forEach((chain, f) -> {
            if (Duration.between(f.since(), now).compareTo(after) >= 0) {
                out.put(chain, "escrow commands waiting: rounds failing since " + f.since() + ": " + f.reason());
            }
        });
        return out;
    }
}
