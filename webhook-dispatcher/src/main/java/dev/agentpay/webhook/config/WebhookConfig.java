package dev.agentpay.webhook.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.List;

/** Settings of webhook-dispatcher: what targets are allowed, how deliveries are sent and retried. */
@ConfigMapping(prefix = "webhook")
public interface WebhookConfig {

    /** Label of this service in logs and documents. */
    @WithDefault("webhook-dispatcher")
    String serviceName();

    /**
     * Whether subscription URLs may point at (or resolve to) private, loopback, link-local, unique-local
     * or multicast addresses. False in production (SSRF guard); true in the local stack and in tests
     * that deliver to a loopback receiver.
     */
    @WithDefault("false")
    boolean allowPrivateTargets();

    /** Whether plain {@code http://} URLs are accepted; production accepts only {@code https://}. */
    @WithDefault("false")
    boolean allowHttp();

    /** Subscriptions one partner may hold. */
    @WithDefault("20")
    int maxSubscriptionsPerPartner();

    /** Retry and disabling policy. */
    Retry retry();

    /** How the worker sends deliveries. */
    Delivery delivery();

    /** Secret rotation. */
    Rotation rotation();

    /** How long finished deliveries stay in the history (issue 34: tables that stop growing). */
    History history();

    interface History {

        /**
         * A delivery that ended ({@code succeeded} or {@code failed}) longer ago than this is deleted with its
         * attempts, and its event once no delivery refers to it. Pending deliveries are never deleted.
         */
        @WithDefault("30d")
        Duration retention();

        /** How often each instance prunes (two instances pruning at once only split the work). */
        @WithDefault("10m")
        Duration pruneInterval();

        /** Deliveries deleted per statement: short transactions, no long lock. */
        @WithDefault("1000")
        int pruneBatchSize();
    }

    interface Retry {

        /**
         * Delay before each attempt, the first one included: the Standard Webhooks schedule by default
         * (immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h). After the last entry
         * the delivery is abandoned ({@code failed}).
         */
        @WithDefault("0s,5s,5m,30m,2h,5h,10h,14h,20h,24h")
        List<Duration> schedule();

        /** Random spread applied to every non-zero delay, as a fraction (0.1 = plus or minus 10 %). */
        @WithDefault("0.1")
        double jitter();

        /** Upper bound on a receiver's {@code Retry-After} (429/503) that the dispatcher honours. */
        @WithDefault("24h")
        Duration maxRetryAfter();

        /**
         * A subscription whose deliveries have failed without a single success for this long is
         * disabled with reason {@code failing} and a {@code webhook.disabled} notice.
         */
        @WithDefault("72h")
        Duration disableAfter();
    }

    interface Delivery {

        /** Whole-request timeout of one attempt (connect, send, response status). */
        @WithDefault("15s")
        Duration timeout();

        /** TCP connect timeout of one attempt. */
        @WithDefault("5s")
        Duration connectTimeout();

        /** Attempts in flight at once against one subscription (its endpoint), across all instances. */
        @WithDefault("10")
        int maxConcurrencyPerEndpoint();

        /** Attempts in flight at once in this instance. */
        @WithDefault("256")
        int maxInFlight();

        /** Safety-net poll of the schedule; commits in this instance wake the worker at once. */
        @WithDefault("1s")
        Duration pollInterval();

        /**
         * How long a claimed attempt is reserved for this instance; if the instance dies mid-attempt
         * another one retries after this lease (at-least-once). Longer than the attempt's timeout (15 s), so
         * an attempt still in flight is never sent again by another instance; short, so the attempts of a
         * frozen or killed instance resume soon (issue 29).
         */
        @WithDefault("20s")
        Duration lease();

        /**
         * On SIGTERM, how long the instance waits for its attempts in flight to record their outcome before it
         * goes on shutting down (the attempt's timeout and a second to record it). An attempt still in flight
         * after it is sent again by another instance once its lease expires (at-least-once).
         */
        @WithDefault("16s")
        Duration drainTimeout();
    }

    interface Rotation {

        /** Overlap during which the previous secret also signs deliveries, when the request names none. */
        @WithDefault("24h")
        Duration defaultOverlap();

        /** Longest overlap a partner may ask for. */
        @WithDefault("7d")
        Duration maxOverlap();
    }
}
