package dev.agentpay.webhook.delivery.service;

import dev.agentpay.commons.loop.InFlight;
import dev.agentpay.commons.loop.WakeLoop;
import dev.agentpay.webhook.delivery.client.WebhookHttpClient;
import dev.agentpay.webhook.config.WebhookConfig;
import dev.agentpay.webhook.delivery.domain.Delivery;
import dev.agentpay.webhook.subscription.domain.Subscription;
import dev.agentpay.webhook.delivery.repository.DeliveryRepository;
import dev.agentpay.webhook.delivery.repository.DeliveryRepository.Claimed;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.jboss.logging.Logger;

/**
 * Sends due deliveries. All state lives in the database: a round claims due rows under a lease (see
 * {@link DeliveryRepository#claim}), sends them without waiting for each other, and records every
 * attempt with the next step: success, a retry after the configured schedule (or the receiver's
 * {@code Retry-After}), or abandonment. A restarted instance simply finds the due rows.
 */
@ApplicationScoped
public class DeliveryWorker {

    private static final Logger LOG = Logger.getLogger(DeliveryWorker.class);

    @Inject
    DeliveryRepository deliveries;
    @Inject
    WebhookHttpClient http;
    @Inject
    WebhookConfig config;
    @Inject
    Disabler disabler;
    @Inject
    SuccessRecorder successes;
    @Inject
    MeterRegistry meters;
    @Inject
    Vertx vertx;
    @Inject
    Pool pool;

    private final InFlight inFlight = new InFlight();
    private Timer latency;
    private Timer claimTimer;
    private Timer recordTimer;
    private WakeLoop loop;

    @PostConstruct
    void init() {
        latency = Timer.builder("webhook.attempt.latency").publishPercentiles(0.5, 0.99).register(meters);
        claimTimer = Timer.builder("webhook.claim.duration").publishPercentiles(0.5, 0.99).register(meters);
        recordTimer = Timer.builder("webhook.record.duration").publishPercentiles(0.5, 0.99).register(meters);
        loop = new WakeLoop("webhook delivery claim", vertx, this::round)
                .onFailure(e -> LOG.warnf("delivery claim failed, will retry: %s", e.getMessage()));
    }

    void start(@Observes StartupEvent ev) {
        loop.start(); // deliveries left due by the previous run
    }

    /**
     * The first step of a clean shutdown (SIGTERM, before the shutdown delay, while the database pool is still
     * open): no new claims, and the attempts in flight finish and record their outcome. By the {@link ShutdownEvent}
     * the reactive pool may already be closing: an attempt in flight then failed to record its 2xx ("Pool closed"),
     * and another instance sent it again after its lease (found by RollingRestartIT).
     */
    void drain(@Observes ShutdownDelayInitiatedEvent ev) {
        if (!drain(config.delivery().drainTimeout())) {
            LOG.warnf("shutdown: %d delivery attempt(s) still in flight after %s; their leases expire and another "
                    + "instance sends them again", inFlight.get(), config.delivery().drainTimeout());
        }
    }

    void stop(@Observes ShutdownEvent ev) {
        loop.stop();
    }

    /**
     * Stops claiming and waits until every attempt in flight has recorded its outcome, at most {@code timeout}.
     * Returns whether none is left. Blocks: called on the shutdown thread.
     */
    boolean drain(Duration timeout) {
        loop.stop();
        return inFlight.awaitNone(timeout);
    }

    @Scheduled(every = "${webhook.delivery.poll-interval:1s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void poll() {
        wake();
    }

    /** Asks for a claim round; concurrent requests coalesce into one running round plus one follow-up. */
    public void wake() {
        loop.wake();
    }

    /** One claim round: sends what it claimed; asks for another round when it filled the room. */
    private Uni<Boolean> round() {
        int room = config.delivery().maxInFlight() - inFlight.get();
        if (room <= 0) {
            return Uni.createFrom().item(false);
        }
        long t0 = System.nanoTime();
        return pool.withTransaction(tx -> deliveries.claim(tx, room, config.delivery().maxConcurrencyPerEndpoint(),
                        config.delivery().lease().toMillis()))
                .map(claimed -> {
                    claimTimer.record(Duration.ofNanos(System.nanoTime() - t0));
                    claimed.forEach(this::send);
                    if (claimed.size() == room) {
                        return true;
                    }
                    armTimer();
                    return false;
                });
    }

    /**
     * Retries due sooner than the next poll get a timer, so short backoffs (5 s, Retry-After) are kept
     * to the millisecond rather than to the poll interval.
     */
    private void armTimer() {
        deliveries.millisUntilNextDue(pool).subscribe().with(ms -> {
            if (ms != null && ms < config.delivery().pollInterval().toMillis()) {
                loop.wakeIn(Duration.ofMillis(Math.max(ms, 1)));
            }
        }, e -> LOG.debugf("next-due lookup failed: %s", e.getMessage()));
    }

    private void send(Claimed c) {
        inFlight.started();
        attempt(c).subscribe().with(v -> done(), e -> {
            LOG.warnf("recording delivery %s failed; its lease will expire and it will be retried: %s",
                    c.deliveryId(), e.getMessage());
            done();
        });
    }

    private void done() {
        inFlight.ended();
        wake();
    }

    /** One attempt: sign, POST, then record the outcome and the next step in one transaction. */
    Uni<Void> attempt(Claimed c) {
        byte[] body = c.body().getBytes(StandardCharsets.UTF_8);
        long ts = System.currentTimeMillis() / 1000;
        Map<String, String> headers = headers(c, body, ts);
        OffsetDateTime started = OffsetDateTime.now(ZoneOffset.UTC);
        long t0 = System.nanoTime();
        return http.post(c.url(), Buffer.buffer(body), headers).flatMap(r -> {
            long nanos = System.nanoTime() - t0;
            latency.record(Duration.ofNanos(nanos));
            int ms = (int) Math.min(Integer.MAX_VALUE, nanos / 1_000_000);
            long r0 = System.nanoTime();
            return record(c, started, r, ms).invoke(() -> recordTimer.record(Duration.ofNanos(System.nanoTime() - r0)));
        });
    }

    static Map<String, String> headers(Claimed c, byte[] body, long ts) {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("Content-Type", "application/json");
        h.put("X-Service-Signature", Signatures.serviceSignature(c.secret(), body));
        String std = Signatures.standardSignature(c.secret(), c.eventId().toString(), ts, body);
        if (c.previousSecret() != null) {
            h.put("X-Service-Signature-Previous", Signatures.serviceSignature(c.previousSecret(), body));
            std = std + " " + Signatures.standardSignature(c.previousSecret(), c.eventId().toString(), ts, body);
        }
        h.put("webhook-id", c.eventId().toString());
        h.put("webhook-timestamp", Long.toString(ts));
        h.put("webhook-signature", std);
        h.put("X-Service-Event", c.eventType());
        h.put("X-Service-Delivery", c.deliveryId().toString());
        h.put("X-Service-Attempt", Integer.toString(c.attempts() + 1));
        return h;
    }

    private Uni<Void> record(Claimed c, OffsetDateTime started, WebhookHttpClient.Response r, int ms) {
        Integer code = r.status();
        boolean ok = code != null && code >= 200 && code < 300;
        meters.counter("webhook.attempts", "outcome", ok ? "succeeded" : "failed").increment();
        if (ok) {
            return successes.record(new DeliveryRepository.Success(c, started, code, ms));
        }
        String error = r.error() != null ? r.error() : "HTTP " + code;
        if (code != null && code == 410) {
            return pool.withTransaction(tx -> deliveries
                    .recordAttempt(tx, c, started, "failed", code, ms, error, Delivery.FAILED, 0)
                    .flatMap(v -> disabler.disable(tx, c.subscriptionId(), c.partnerId(), c.url(), Subscription.REASON_GONE)));
        }
        int next = c.scheduleIndex() + 1;
        List<Duration> schedule = config.retry().schedule();
        boolean exhausted = next >= schedule.size();
        long delay = exhausted ? 0 : retryDelay(schedule.get(next), code, r.retryAfter());
        return pool.withTransaction(tx -> deliveries
                .recordAttempt(tx, c, started, "failed", code, ms, error, exhausted ? Delivery.FAILED : Delivery.PENDING, delay)
                .flatMap(v -> deliveries.markFailing(tx, c.subscriptionId(), config.retry().disableAfter().toMillis()))
                .flatMap(tooLong -> tooLong
                        ? disabler.disable(tx, c.subscriptionId(), c.partnerId(), c.url(), Subscription.REASON_FAILING)
                        : Uni.createFrom().voidItem()));
    }

    /** The scheduled delay with jitter, or the receiver's Retry-After on 429/503 (bounded). */
    long retryDelay(Duration scheduled, Integer code, String retryAfter) {
        if (code != null && (code == 429 || code == 503)) {
            Long asked = parseRetryAfter(retryAfter);
            if (asked != null) {
                return Math.min(Math.max(asked, 0), config.retry().maxRetryAfter().toMillis());
            }
        }
        long base = scheduled.toMillis();
        double j = config.retry().jitter();
        if (base == 0 || j <= 0) {
            return base;
        }
        return Math.max(0, Math.round(base * (1 + ThreadLocalRandom.current().nextDouble(-j, j))));
    }

    /** Retry-After as delay-seconds or an HTTP-date, in milliseconds; null when absent or unreadable. */
    static Long parseRetryAfter(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String v = value.trim();
        try {
            return Long.parseLong(v) * 1000;
        } catch (NumberFormatException e) {
            try {
                ZonedDateTime at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
                return Math.max(0, at.toInstant().toEpochMilli() - System.currentTimeMillis());
            } catch (RuntimeException e2) {
                return null;
            }
        }
    }

    /** Attempts in flight in this instance (for tests and metrics). */
    public int inFlight() {
        return inFlight.get();
    }
}
