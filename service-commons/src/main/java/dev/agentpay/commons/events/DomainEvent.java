package dev.agentpay.commons.events;

import java.time.Instant;
import java.util.UUID;

/**
 * An event on Kafka: its {@link EventHeader} (unwrapped into the event's JSON) and a payload of its own
 * record components. The header's fields are readable on the event itself.
 */
public interface DomainEvent {

    EventHeader header();

    /** Topic the event is published to. */
    String topic();

    default UUID eventId() {
        return header().eventId();
    }

    default String type() {
        return header().type();
    }

    default String aggregateId() {
        return header().aggregateId();
    }

    /** Owning partner id, or {@code null} for platform-wide events. */
    default String partnerId() {
        return header().partnerId();
    }

    default Instant occurredAt() {
        return header().occurredAt();
    }

    default int schemaVersion() {
        return header().schemaVersion();
    }
}
