package dev.agentpay.commons.auth;

import dev.agentpay.commons.consumer.Consumer;
import dev.agentpay.commons.consumer.Consumers;
import dev.agentpay.commons.consumer.PoisonRecordException;
import dev.agentpay.commons.consumer.SourceRecord;

import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.PartnerEvent;
import dev.agentpay.commons.events.Topics;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.reactive.messaging.annotations.Blocking;
import io.smallrye.reactive.messaging.kafka.KafkaClientService;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.config.ConfigProvider;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

/**
 * This service's view of the partner registry, rebuilt from the compacted {@link Topics#PARTNERS}
 * topic (every instance reads it from the beginning under its own consumer group), so an issue,
 * rotation or revocation takes effect on every service within the consumer's poll interval.
 */
@ApplicationScoped
public class PartnerRegistry {

    /** Channel name of the registry consumer. */
    public static final String CHANNEL = "partners-in";

    private static final Logger LOG = Logger.getLogger(PartnerRegistry.class);

    private final Map<String, Partner> byKeyHash = new ConcurrentHashMap<>();
    private final Map<String, PartnerEvent> byId = new ConcurrentHashMap<>();

    private final RegistryCatchUp catchUp = new RegistryCatchUp();

    @Inject
    KafkaClientService kafka;

    @Inject
    AuthConfig config;

    @Inject
    Consumers consumers;

    /** The registry as a consumer of the discipline (its poison records: {@link Topics#DLT_PARTNERS}). */
    static final Consumer CONSUMER = new Consumer("partner-registry", Topics.DLT_PARTNERS);

    @Incoming(CHANNEL)
    @Blocking(ordered = true)
    public void onPartner(ConsumerRecord<String, String> record) {
        try {
            PartnerEvent event;
            try {
                event = EventCodec.decode(record.value(), PartnerEvent.class);
            } catch (RuntimeException e) {
                // never applicable: kept in the dead-letter topic with the reason, the registry moves on
                consumers.deadLetter(CONSUMER, SourceRecord.of(record),
                        new PoisonRecordException("undecodable partner event: " + e.getMessage(), e)).await().indefinitely();
                return;
            }
            apply(event);
        } finally {
            catchUp.processed(record.partition(), record.offset());
        }
    }

    /**
     * Whether the registry has read every record the {@code partners} topic held when this instance
     * joined; until then an unknown key is answered 503 (retry), not 401, and readiness is down.
     */
    public boolean caughtUp() {
        return catchUp.caughtUp();
    }

    /** Learns where the topic ended once the consumer has its partitions; stops once caught up. */
    @Scheduled(every = "1s", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void learnTarget() {
        if (catchUp.caughtUp()) {
            return;
        }
        if (!config.awaitRegistry()) {
            catchUp.assumeCaughtUp();
            return;
        }
        KafkaConsumer<Object, Object> consumer = kafka.getConsumer(CHANNEL);
        if (consumer == null) {
            // Not created yet while the application starts (FaultIT saw 401s when this counted as caught
            // up); only a deployment without the registry channel has nothing to wait for.
            if (ConfigProvider.getConfig().getOptionalValue("mp.messaging.incoming." + CHANNEL + ".connector", String.class)
                    .isEmpty()) {
                catchUp.assumeCaughtUp();
            }
            return;
        }
        consumer.runOnPollingThread(c -> {
            Set<TopicPartition> parts = c.assignment();
            if (parts.isEmpty()) {
                return null;
            }
            Map<Integer, Long> ends = new HashMap<>();
            c.endOffsets(parts).forEach((tp, end) -> ends.put(tp.partition(), end));
            return ends;
        }).subscribe().with(ends -> {
            if (ends != null) {
                catchUp.target(ends);
            }
        }, e -> LOG.debugf("partners end offsets not known yet: %s", e.getMessage()));
    }

    /** Applies one registry record; records for a partner replace its earlier ones. */
    public synchronized void apply(PartnerEvent event) {
        PartnerEvent previous = byId.put(event.partnerId(), event);
        if (previous != null && previous.apiKeyHashes() != null) {
            previous.apiKeyHashes().forEach(byKeyHash::remove);
        }
        if (PartnerEvent.ACTIVE.equals(event.status()) && event.apiKeyHashes() != null) {
            Partner partner = new Partner(event.partnerId(), event.name());
            event.apiKeyHashes().forEach(h -> byKeyHash.put(h, partner));
        }
        LOG.infof("partner %s is %s with %d key(s)", event.partnerId(), event.status(),
                event.apiKeyHashes() == null ? 0 : event.apiKeyHashes().size());
    }

    /**
     * The scopes the partner's API key may use: every scope unless the partner's key is restricted
     * ({@code apiKeyScopes} on its registry record).
     */
    public Set<String> keyScopes(String partnerId) {
        PartnerEvent e = byId.get(partnerId);
        if (e == null || e.apiKeyScopes() == null) {
            return Scopes.ALL.keySet();
        }
        return Set.copyOf(e.apiKeyScopes());
    }

    /** The active partner with this id, if any (the subject of an access token). */
    public Optional<Partner> active(String partnerId) {
        PartnerEvent e = partnerId == null ? null : byId.get(partnerId);
        if (e == null || !PartnerEvent.ACTIVE.equals(e.status())) {
            return Optional.empty();
        }
        return Optional.of(new Partner(e.partnerId(), e.name()));
    }

    /**
     * The scopes an OAuth client of an active partner may still use, if the client is registered (a revoked
     * client, or one of a revoked partner, is absent: its tokens stop working before they expire).
     */
    public Optional<Set<String>> clientScopes(String partnerId, String clientId) {
        PartnerEvent e = partnerId == null ? null : byId.get(partnerId);
        if (e == null || clientId == null || !PartnerEvent.ACTIVE.equals(e.status()) || e.oauthClients() == null) {
            return Optional.empty();
        }
        return e.oauthClients().stream().filter(c -> clientId.equals(c.clientId())).findFirst()
                .map(c -> c.scopes() == null ? Set.<String>of() : Set.copyOf(c.scopes()));
    }

    /** The active partner owning this key, if any. */
    public Optional<Partner> authenticate(String apiKey) {
        if (!ApiKeys.wellFormed(apiKey)) {
            return Optional.empty();
        }
        return Optional.ofNullable(byKeyHash.get(ApiKeys.hash(apiKey)));
    }

    public int size() {
        return byId.size();
    }
}
