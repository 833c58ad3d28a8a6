package dev.agentpay.commons.auth;

import dev.agentpay.commons.events.EventCodec;
import dev.agentpay.commons.events.PartnerEvent;
import dev.agentpay.commons.events.Topics;
import io.smallrye.reactive.messaging.annotations.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
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

    @Incoming(CHANNEL)
    @Blocking(ordered = true)
    public void onPartner(String payload) {
        apply(EventCodec.decode(payload, PartnerEvent.class));
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
