package dev.agentpay.commons.limits;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import java.time.Duration;

/**
 * Token buckets of one scope (partners or client addresses), held in a bounded cache. A bucket idle
 * for its refill time is full again, so dropping it then is invisible to its owner; memory stays
 * bounded by {@code maxBuckets} even under a flood of distinct keys.
 */
public final class RateLimiter {

    private final RateLimitConfig.Bucket settings;
    private final Ticker ticker;
    private final Cache<String, TokenBucket> buckets;

    public RateLimiter(RateLimitConfig.Bucket settings, long maxBuckets, Ticker ticker) {
        this.settings = settings;
        this.ticker = ticker;
        this.buckets = Caffeine.newBuilder()
                .maximumSize(maxBuckets)
                .expireAfterAccess(Duration.ofSeconds(TokenBucket.refillSeconds(settings.rate(), settings.burst())))
                .ticker(ticker)
                .build();
    }

    /** Takes one token from {@code key}'s bucket. */
    public TokenBucket.Decision take(String key) {
        long now = ticker.read();
        return buckets.get(key, k -> new TokenBucket(settings.rate(), settings.burst(), now)).tryTake(now);
    }

    /** Buckets currently held (approximate). */
    public long size() {
        return buckets.estimatedSize();
    }

    void cleanUp() {
        buckets.cleanUp();
    }
}
