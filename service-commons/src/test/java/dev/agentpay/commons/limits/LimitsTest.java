package dev.agentpay.commons.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.benmanes.caffeine.cache.Ticker;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The token bucket, its bounded store and the client-address rule, on a hand-driven clock. */
class LimitsTest {

    static final long SECOND = 1_000_000_000L;

    record Settings(double rate, int burst) implements RateLimitConfig.Bucket {
    }

    @Test
    void bucketAllowsTheBurstThenRefusesWithRetryAfterAndRefillsAtTheRate() {
        TokenBucket b = new TokenBucket(20, 40, 0);
        for (int i = 0; i < 40; i++) {
            TokenBucket.Decision d = b.tryTake(0);
            assertThat(d.allowed()).as("request %d", i).isTrue();
            assertThat(d.remaining()).isEqualTo(39 - i);
            assertThat(d.limit()).isEqualTo(40);
        }
        TokenBucket.Decision refused = b.tryTake(0);
        assertThat(refused.allowed()).isFalse();
        assertThat(refused.remaining()).isZero();
        assertThat(refused.retryAfterSeconds()).isEqualTo(1);
        assertThat(refused.resetSeconds()).isEqualTo(2);

        // 100 ms at 20/s gives two tokens back.
        assertThat(b.tryTake(SECOND / 10).allowed()).isTrue();
        assertThat(b.tryTake(SECOND / 10).allowed()).isTrue();
        assertThat(b.tryTake(SECOND / 10).allowed()).isFalse();

        // Never more than the burst, however long the pause.
        TokenBucket.Decision later = b.tryTake(3600 * SECOND);
        assertThat(later.remaining()).isEqualTo(39);
        assertThat(later.resetSeconds()).isEqualTo(1);
    }

    @Test
    void slowRateGivesALongerRetryAfter() {
        TokenBucket b = new TokenBucket(0.2, 1, 0);
        assertThat(b.tryTake(0).allowed()).isTrue();
        TokenBucket.Decision d = b.tryTake(SECOND);
        assertThat(d.allowed()).isFalse();
        assertThat(d.retryAfterSeconds()).isEqualTo(4);
        assertThat(b.tryTake(5 * SECOND).allowed()).isTrue();
    }

    @Test
    void clockGoingBackwardsAddsNothing() {
        TokenBucket b = new TokenBucket(1, 1, 10 * SECOND);
        assertThat(b.tryTake(10 * SECOND).allowed()).isTrue();
        assertThat(b.tryTake(5 * SECOND).allowed()).isFalse();
    }

    @Test
    void refusesNonsenseSettings() {
        assertThatThrownBy(() -> new TokenBucket(0, 1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TokenBucket(1, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TokenBucket(Double.NaN, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void limiterKeepsOneBucketPerKeyAndStaysBounded() {
        AtomicLong now = new AtomicLong();
        Ticker ticker = now::get;
        RateLimiter limiter = new RateLimiter(new Settings(1, 2), 1000, ticker);
        assertThat(limiter.take("a").allowed()).isTrue();
        assertThat(limiter.take("a").allowed()).isTrue();
        assertThat(limiter.take("a").allowed()).isFalse();
        assertThat(limiter.take("b").allowed()).as("another key has its own bucket").isTrue();

        for (int i = 0; i < 20_000; i++) {
            limiter.take("flood-" + i);
        }
        limiter.cleanUp();
        assertThat(limiter.size()).isLessThanOrEqualTo(1000);
    }

    @Test
    void idleBucketsAreDroppedOnceTheyWouldHaveRefilled() {
        AtomicLong now = new AtomicLong();
        RateLimiter limiter = new RateLimiter(new Settings(10, 20), 1000, now::get);
        for (int i = 0; i < 50; i++) {
            limiter.take("k" + i);
        }
        limiter.cleanUp();
        assertThat(limiter.size()).isEqualTo(50);
        now.addAndGet(3 * SECOND);
        limiter.cleanUp();
        assertThat(limiter.size()).isZero();
    }

    @Test
    void clientAddressBelievesOnlyTrustedProxies() {
        ClientAddress a = new ClientAddress(List.of("127.0.0.0/8", "::1/128", "10.0.0.0/8"));
        // Direct callers are who they are, whatever they claim.
        assertThat(a.resolve("203.0.113.9", "198.51.100.1")).isEqualTo("203.0.113.9");
        assertThat(a.resolve("203.0.113.9", null)).isEqualTo("203.0.113.9");
        // Behind a trusted proxy: the right-most untrusted hop.
        assertThat(a.resolve("127.0.0.1", "198.51.100.1")).isEqualTo("198.51.100.1");
        assertThat(a.resolve("127.0.0.1", "6.6.6.6, 198.51.100.1, 10.1.2.3")).isEqualTo("198.51.100.1");
        assertThat(a.resolve("::1", "2001:db8::1")).isEqualTo("2001:db8:0:0:0:0:0:1");
        assertThat(a.resolve("127.0.0.1", null)).isEqualTo("127.0.0.1");
        // Only trusted hops: the left-most one.
        assertThat(a.resolve("127.0.0.1", "10.0.0.5, 127.0.0.1")).isEqualTo("10.0.0.5");
        // Garbage stops the walk at the last believed hop; names are never resolved.
        assertThat(a.resolve("127.0.0.1", "example.com, 198.51.100.1")).isEqualTo("198.51.100.1");
        assertThat(a.resolve("127.0.0.1", "not-an-ip")).isEqualTo("127.0.0.1");
        assertThat(a.resolve("127.0.0.1", ",,,")).isEqualTo("127.0.0.1");
        assertThat(a.resolve(null, "1.2.3.4")).isEqualTo("unknown");
        // Our own network without a forwarded client is an internal call; with one, or from outside, it is not.
        assertThat(a.isInternal("127.0.0.1", null)).isTrue();
        assertThat(a.isInternal("10.2.3.4", " ")).isTrue();
        assertThat(a.isInternal("127.0.0.1", "198.51.100.1")).isFalse();
        assertThat(a.isInternal("203.0.113.9", null)).isFalse();
        assertThat(a.isInternal(null, null)).isFalse();
        // IPv4-mapped IPv6 is the IPv4 address.
        assertThat(a.resolve("::ffff:127.0.0.1", "198.51.100.7")).isEqualTo("198.51.100.7");
        assertThat(a.resolve("127.0.0.1", "[2001:db8::2]")).isEqualTo("2001:db8:0:0:0:0:0:2");
    }

    @Test
    void cidrBlocksMatchByPrefix() {
        ClientAddress a = new ClientAddress(List.of("192.168.0.0/23", "fd00::/8"));
        assertThat(a.isTrusted(ClientAddress.parse("192.168.1.255"))).isTrue();
        assertThat(a.isTrusted(ClientAddress.parse("192.168.2.0"))).isFalse();
        assertThat(a.isTrusted(ClientAddress.parse("fd12::1"))).isTrue();
        assertThat(a.isTrusted(ClientAddress.parse("fe80::1"))).isFalse();
        assertThatThrownBy(() -> new ClientAddress(List.of("proxy.internal"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ClientAddress(List.of("10.0.0.0/33"))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void bodyLimitsByLongestPrefixUnderTheCeiling() {
        BodyLimitFilter.Limits l = BodyLimitFilter.Limits.of(8 << 20,
                java.util.Map.of("/", 64L << 10, "/disco/benchmark/publish", 8L << 20, "/big", 16L << 20));
        assertThat(l.limitFor("/disco/mcp")).isEqualTo(64 << 10);
        assertThat(l.limitFor("/disco/benchmark/publish")).isEqualTo(8 << 20);
        assertThat(l.limitFor("/disco/benchmark/raw/x")).isEqualTo(64 << 10);
        assertThat(l.limitFor("/big/x")).as("never above the ceiling").isEqualTo(8 << 20);
        assertThat(l.adminOnly("/disco/benchmark/publish")).isTrue();
        assertThat(l.adminOnly("/disco/mcp")).isFalse();
        BodyLimitFilter.Limits none = BodyLimitFilter.Limits.of(1 << 20, java.util.Map.of());
        assertThat(none.limitFor("/v1/mandates")).isEqualTo(1 << 20);
        assertThat(none.adminOnly("/v1/mandates")).as("the ceiling alone makes no admin route").isFalse();
        assertThat(BodyLimitFilter.adminKeyMatches("adm_x", "adm_x")).isTrue();
        assertThat(BodyLimitFilter.adminKeyMatches("adm_y", "adm_x")).isFalse();
        assertThat(BodyLimitFilter.adminKeyMatches(null, "adm_x")).isFalse();
        assertThat(BodyLimitFilter.adminKeyMatches("adm_x", null)).isFalse();
    }
}
