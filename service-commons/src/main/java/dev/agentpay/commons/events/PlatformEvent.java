package dev.agentpay.commons.events;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.UUID;

/**
 * A platform-wide event with no owning partner, such as {@code disco.benchmark.published}; it goes to
 * every subscriber of its type.
 */
public record PlatformEvent(
        UUID eventId,
        String type,
        String aggregateId,
        String partnerId,
        Instant occurredAt,
        int schemaVersion,
        JsonNode data) implements DomainEvent {

    public static final String BENCHMARK_PUBLISHED = "disco.benchmark.published";
    public static final int SCHEMA_VERSION = 1;

    @Override
    public String topic() {
        return Topics.PLATFORM_EVENTS;
    }
}
