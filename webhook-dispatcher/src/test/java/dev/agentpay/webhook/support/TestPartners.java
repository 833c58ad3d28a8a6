package dev.agentpay.webhook.support;

import dev.agentpay.commons.auth.ApiKeys;
import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.PartnerEvent;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** Registers partners with fresh API keys directly in the registry (production fills it from Kafka). */
public final class TestPartners {

    /** A partner id and its API key. */
    public record TestPartner(String id, String apiKey) {
    }

    private TestPartners() {
    }

    public static TestPartner register(PartnerRegistry registry) {
        String id = "ptn_" + UUID.randomUUID();
        String key = ApiKeys.generate();
        registry.apply(new PartnerEvent(EventHeader.of(PartnerEvent.TYPE, id, id, Instant.now(), 1), "test partner",
                PartnerEvent.ACTIVE, List.of(ApiKeys.hash(key))));
        return new TestPartner(id, key);
    }
}
