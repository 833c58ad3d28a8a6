package dev.agentpay.commons.consumer;

import dev.agentpay.commons.loop.InFlight;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.MutinyEmitter;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;
import io.smallrye.reactive.messaging.kafka.impl.ReactiveKafkaConsumer;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import io.quarkus.runtime.ShutdownDelayInitiatedEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

/**
 * The one discipline of every Kafka consumer of the platform.
 * <ul>
 * <li>Applying a record (or a batch) is retried <b>without limit</b> while it fails: a database or a
 * downstream away for minutes is waited out, the offset does not move, nothing is skipped and the channel
 * never fails (a bounded retry used to fail the channel for good: issue 16). The wait starts at
 * {@code platform.consumers.initial-backoff} and doubles up to {@code max-backoff}; every failed try counts
 * in {@code consumer.retries{consumer}}; the first failure, every tenth and the recovery are logged.</li>
 * <li>A record that can never succeed (undecodable, invalid: {@link PoisonRecordException}) goes to the
 * consumer's dead-letter topic with the reason and its origin in headers, and the consumer moves on; the
 * send is awaited (the offset commits only after Kafka has the dead letter) and counted in
 * {@code consumer.dead.letters{consumer}}. Nothing is dropped silently.</li>
 * <li>A consumer retrying one record for longer than {@code stall-after} is reported by the readiness
 * check {@code consumers} (DOWN, with the consumer, since when and the last error) until it moves again;
 * {@code consumer.stalled.seconds{consumer}} says how long.</li>
 * <li><b>Drain on SIGTERM</b>: at the pre-shutdown event ({@code ShutdownDelayInitiatedEvent}, fired before the shutdown
 * delay, while the database pool is certainly open) no new record starts, and the records being applied finish (at most
 * {@code drain-timeout}). A record that would start after that is held: it is never acknowledged, and the partition's
 * next owner applies it. Before this, the batch in hand met the pool closing ("Pool closed") and was retried until the
 * consumer closed, in vain. Then the consumers of every shared group are closed at once ({@link #handOver}): each
 * commits what was applied and leaves its group, so its partitions move to the other instances within a rebalance,
 * while this one still finishes its requests. They used to close at the shutdown event, after the shutdown delay and
 * the requests in flight: the partitions stayed with an instance that applied nothing for the 5-9 s of its drain, and
 * each restart of a rolling update held the records behind them that long (anchoring 7.4 s and settlement 8.1 s in
 * RollingRestartIT, against 2-4 s steady).</li>
 * </ul>
 * The connector's own unacknowledged-record watchdog ({@code throttled.unprocessed-record-max-age.ms})
 * is off for the same reason (it failed the channel after 60 s of a database outage); the stall check
 * replaces it.
 */
@ApplicationScoped
public class Consumers {

    /** Channel of dead letters; each record names its topic. */
    public static final String DEAD_LETTER_CHANNEL = "dead-letters-out";
    public static final String H_REASON = "dead-letter-reason";
    public static final String H_CAUSE = "dead-letter-cause";
    public static final String H_CONSUMER = "dead-letter-consumer";
    public static final String H_TOPIC = "dead-letter-topic";
    public static final String H_PARTITION = "dead-letter-partition";
    public static final String H_OFFSET = "dead-letter-offset";
    public static final String H_AT = "dead-letter-at";

    private static final Logger LOG = Logger.getLogger(Consumers.class);

    /** A consumer's current run of failures. */
    public record Stall(Instant since, long attempts, String lastError) {
    }

    @Inject
    ConsumerConfig config;

    /** The connector's consumers (null in plain unit tests). */
    @Inject
    KafkaClientService kafka;

    @Inject
    MeterRegistry registry;

    @Inject
    @Channel(DEAD_LETTER_CHANNEL)
    MutinyEmitter<String> deadLetters;

    private final Map<String, Stall> stalls = new ConcurrentHashMap<>();
    private final InFlight applyingNow = new InFlight();
    private volatile boolean draining;
    private final Map<String, AtomicLong> deadLettered = new ConcurrentHashMap<>();

    /**
     * Applies {@code work} until it succeeds: every failure but {@link PoisonRecordException} is
     * transient and retried with back-off, for ever. A poison failure is passed on to the caller.
     */
    public <T> Uni<T> untilApplied(Consumer consumer, Supplier<? extends Uni<? extends T>> work) {
        Objects.requireNonNull(consumer);
        Uni<T> applying = Uni.createFrom().<T>deferred(work::get)
                .onFailure(e -> !(e instanceof PoisonRecordException)).invoke(e -> failed(consumer, e))
                .onFailure(e -> !(e instanceof PoisonRecordException)).retry()
                .withBackOff(config.initialBackoff(), config.maxBackoff()).indefinitely()
                .invoke(x -> recovered(consumer));
        return Uni.createFrom().deferred(() -> {
            if (draining) {
                // held, never acknowledged: the partition's next owner applies it
                return Uni.createFrom().<T>nothing();
            }
            applyingNow.started();
            return applying.onTermination().invoke(applyingNow::ended);
        });
    }

    /** The first step of a clean shutdown: see the class comment, "Drain on SIGTERM". */
    void drain(@Observes ShutdownDelayInitiatedEvent ev) {
        if (!drain(config.drainTimeout())) {
            LOG.warnf("shutdown: %d record batch(es) still being applied after %s; their partitions' next owners apply"
                    + " them again (idempotent consumers)", applyingNow.get(), config.drainTimeout());
        }
        handOver();
    }

    /**
     * Closes the consumer of every channel whose group the other instances share, all at once, each as the connector
     * itself closes it at shutdown: the poll is woken, the applied offsets commit (the revocation callback of the commit
     * strategy) and the consumer leaves its group, so the group rebalances now instead of when the process exits. The
     * connector's own close at the shutdown event then finds it closed. A record handed out but held by the drain is
     * never committed: the next owner applies it. A channel whose group is this instance's own (its group id holds
     * {@code quarkus.uuid}: the partner registry, read whole by every instance) has nothing to hand over and keeps
     * reading until the exit. Blocks at most the connector's close timeout (twice), the closes running side by side.
     */
    void handOver() {
        if (kafka == null) {
            return;
        }
        String instance = ConfigProvider.getConfig().getOptionalValue("quarkus.uuid", String.class).orElse(null);
        Set<String> channels = new LinkedHashSet<>(); // a channel with several consumers (partitions) is named once
        List<Thread> closing = new ArrayList<>();
        for (String channel : kafka.getConsumerChannels()) {
            if (ownGroup(groupOf(channel), instance)) {
                continue;
            }
            for (KafkaConsumer<Object, Object> consumer : kafka.<Object, Object>getConsumers(channel)) {
                if (consumer instanceof ReactiveKafkaConsumer<?, ?> closable) {
                    Thread t = new Thread(closable::close, "drain-leave-" + channel);
                    t.start();
                    closing.add(t);
                    channels.add(channel);
                }
            }
        }
        for (Thread t : closing) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (!channels.isEmpty()) {
            LOG.infof("shutdown: consumers of %s committed and left their groups", channels);
        }
    }

    private static Optional<String> groupOf(String channel) {
        return ConfigProvider.getConfig().getOptionalValue("mp.messaging.incoming." + channel + ".group.id", String.class);
    }

    /** Whether a channel's group is this instance's alone: its id holds the instance's {@code quarkus.uuid}. */
    static boolean ownGroup(Optional<String> group, String instance) {
        return instance != null && !instance.isBlank() && group.map(g -> g.contains(instance)).orElse(false);
    }

    /**
     * Starts no new record from now on and waits until the records being applied have finished, at most
     * {@code timeout}; returns whether none is left. Blocks: called on the shutdown thread.
     */
    boolean drain(Duration timeout) {
        draining = true;
        return applyingNow.awaitNone(timeout);
    }

    /** Records (or batches) being applied right now in this instance. */
    public int applying() {
        return applyingNow.get();
    }

    /**
     * Applies one record's {@code work} until it succeeds ({@link #untilApplied}); when it turns out to be
     * poison, dead-letters the record instead.
     */
    public Uni<Void> apply(Consumer consumer, SourceRecord record, Supplier<? extends Uni<?>> work) {
        return untilApplied(consumer, work).replaceWithVoid()
                .onFailure(PoisonRecordException.class).recoverWithUni(e -> deadLetter(consumer, record, e));
    }

    /**
     * Applies one record ({@link #apply}) to what {@code decode} makes of it. A record {@code decode} refuses (any
     * RuntimeException: undecodable, invalid) can never be applied: it is dead-lettered at once, the reason
     * {@code malformed} followed by the refusal's message.
     */
    public <T> Uni<Void> decodeThenApply(Consumer consumer, SourceRecord record, String malformed, Supplier<T> decode,
            Function<? super T, ? extends Uni<?>> work) {
        T decoded;
        try {
            decoded = decode.get();
        } catch (RuntimeException e) {
            return deadLetter(consumer, record, new PoisonRecordException(malformed + e.getMessage(), e));
        }
        return apply(consumer, record, () -> work.apply(decoded));
    }

    /**
     * Sends {@code record} to the consumer's dead-letter topic with {@code reason}; completes once Kafka
     * has it (a broker away is waited out like any transient failure).
     */
    public Uni<Void> deadLetter(Consumer consumer, SourceRecord record, Throwable reason) {
        String why = reason.getMessage() == null ? reason.getClass().getSimpleName() : reason.getMessage();
        counter("consumer.dead.letters", consumer).increment();
        deadLettered.computeIfAbsent(consumer.name(), n -> new AtomicLong()).incrementAndGet();
        LOG.errorf("consumer %s: record %s-%d@%d can never be applied (%s); sent to %s", consumer.name(), record.topic(),
                record.partition(), record.offset(), why, consumer.deadLetterTopic());
        return untilApplied(consumer, () -> deadLetters.sendMessage(message(consumer, record, why, reason)));
    }

    private static Message<String> message(Consumer consumer, SourceRecord record, String why, Throwable reason) {
        RecordHeaders headers = new RecordHeaders();
        if (record.headers() != null) {
            for (Header h : record.headers()) {
                if (!h.key().startsWith("dead-letter-")) {
                    headers.add(h.key(), h.value());
                }
            }
        }
        put(headers, H_REASON, why);
        put(headers, H_CAUSE, (reason.getCause() != null ? reason.getCause() : reason).getClass().getName());
        put(headers, H_CONSUMER, consumer.name());
        put(headers, H_TOPIC, record.topic());
        put(headers, H_PARTITION, Integer.toString(record.partition()));
        put(headers, H_OFFSET, Long.toString(record.offset()));
        put(headers, H_AT, Instant.now().toString());
        OutgoingKafkaRecordMetadata<String> meta = OutgoingKafkaRecordMetadata.<String>builder()
                .withTopic(consumer.deadLetterTopic())
                .withKey(record.key())
                .withHeaders(headers)
                .build();
        return Message.of(record.payload() == null ? "" : record.payload()).addMetadata(meta);
    }

    private static void put(RecordHeaders headers, String key, String value) {
        if (value != null) {
            headers.add(key, value.getBytes(StandardCharsets.UTF_8));
        }
    }

    private void failed(Consumer consumer, Throwable e) {
        counter("consumer.retries", consumer).increment();
        Stall s = stalls.compute(consumer.name(), (n, old) -> old == null
                ? new Stall(Instant.now(), 1, String.valueOf(e.getMessage()))
                : new Stall(old.since(), old.attempts() + 1, String.valueOf(e.getMessage())));
        registry.gauge("consumer.stalled.seconds", io.micrometer.core.instrument.Tags.of("consumer", consumer.name()),
                this, c -> c.stalledSeconds(consumer.name()));
        if (s.attempts() == 1 || s.attempts() % 10 == 0) {
            LOG.warnf("consumer %s: applying failed (try %d, since %s), retrying with back-off: %s", consumer.name(),
                    s.attempts(), s.since(), e.getMessage());
        }
    }

    private void recovered(Consumer consumer) {
        Stall s = stalls.remove(consumer.name());
        if (s != null) {
            LOG.infof("consumer %s: applied again after %d failed tries in %.1f s", consumer.name(), s.attempts(),
                    Duration.between(s.since(), Instant.now()).toMillis() / 1000.0);
        }
    }

    private Counter counter(String name, Consumer consumer) {
        return registry.counter(name, "consumer", consumer.name());
    }

    double stalledSeconds(String consumer) {
        Stall s = stalls.get(consumer);
        return s == null ? 0 : Duration.between(s.since(), Instant.now()).toMillis() / 1000.0;
    }

    /** Consumers failing right now, by name. */
    public Map<String, Stall> stalls() {
        return Map.copyOf(stalls);
    }

    /** Records dead-lettered since start, by consumer. */
    public Map<String, Long> deadLettered() {
        Map<String, Long> m = new java.util.TreeMap<>();
        deadLettered.forEach((k, v) -> m.put(k, v.get()));
        return m;
    }

    Duration stallAfter() {
        return config.stallAfter();
    }
}
