package dev.agentpay.commons.limits;

/**
 * A token bucket: {@code burst} tokens at most, refilled continuously at {@code rate} per second;
 * each request takes one. Time is passed in (nanoseconds) so the arithmetic is testable.
 */
public final class TokenBucket {

    /** The outcome of one attempt, with what the {@code RateLimit-*} and {@code Retry-After} headers say. */
    public record Decision(boolean allowed, int limit, int remaining, long resetSeconds, long retryAfterSeconds) {
    }

    private final double rate;
    private final int burst;
    private double tokens;
    private long last;

    public TokenBucket(double rate, int burst, long nowNanos) {
        if (!(rate > 0) || burst < 1) {
            throw new IllegalArgumentException("rate must be > 0 and burst >= 1");
        }
        this.rate = rate;
        this.burst = burst;
        this.tokens = burst;
        this.last = nowNanos;
    }

    /** Takes one token if there is one. */
    public synchronized Decision tryTake(long nowNanos) {
        long elapsed = nowNanos - last;
        if (elapsed > 0) {
            tokens = Math.min(burst, tokens + elapsed * rate / 1e9);
            last = nowNanos;
        }
        boolean allowed = tokens >= 1;
        if (allowed) {
            tokens -= 1;
        }
        long reset = (long) Math.ceil((burst - tokens) / rate);
        long retryAfter = allowed ? 0 : Math.max(1, (long) Math.ceil((1 - tokens) / rate));
        return new Decision(allowed, burst, (int) Math.floor(tokens), reset, retryAfter);
    }

    /** Seconds after which an untouched bucket is full again, so forgetting it changes nothing. */
    public static long refillSeconds(double rate, int burst) {
        return Math.max(1, (long) Math.ceil(burst / rate));
    }
}
