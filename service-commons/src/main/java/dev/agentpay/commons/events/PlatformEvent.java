package dev.agentpay.commons.events;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A platform-wide event with no owning partner, such as {@code disco.benchmark.published}; it goes to
 * every subscriber of its type.
 */
public record PlatformEvent(
        @JsonUnwrapped EventHeader header,
        JsonNode data) implements DomainEvent {

    public static final String BENCHMARK_PUBLISHED = "disco.benchmark.published";
    public static final int SCHEMA_VERSION = 1;

    @Override
    public String topic() {
        return Topics.PLATFORM_EVENTS;
    }
}
