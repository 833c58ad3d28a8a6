package dev.agentpay.commons.events;

import java.time.Instant;
import java.util.UUID;

/**
 * What every event carries: a unique id (the dedupe key and the webhook id), a type, the aggregate it
 * belongs to (the Kafka key), the owning partner (so fan-out never crosses partners), when it happened
 * and the schema version of its payload.
 */
public interface DomainEvent {

    UUID eventId();

    String type();

    String aggregateId();

    /** Owning partner id, or {@code null} for platform-wide events. */
    String partnerId();

    Instant occurredAt();

    int schemaVersion();

    /** Topic the event is published to. */
    String topic();
}
