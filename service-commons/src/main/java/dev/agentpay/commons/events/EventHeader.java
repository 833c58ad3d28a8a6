package dev.agentpay.commons.events;

import java.time.Instant;
import java.util.UUID;

/**
 * What every event carries: a unique id (the dedupe key and the webhook id), a type, the aggregate it
 * belongs to (the Kafka key), the owning partner (so fan-out never crosses partners), when it happened
 * and the schema version of its payload. Each event record holds it as its first component, unwrapped
 * ({@code @JsonUnwrapped}): on the wire the six fields stand first at the top level of the event's JSON,
 * as they did when every record declared them itself ({@code EventWireFormatTest} pins the bytes).
 *
 * @param partnerId owning partner id, or {@code null} for platform-wide events
 */
public record EventHeader(
        UUID eventId,
        String type,
        String aggregateId,
        String partnerId,
        Instant occurredAt,
        int schemaVersion) {

    /** The header of a new event, with a random id. */
    public static EventHeader of(String type, String aggregateId, String partnerId, Instant occurredAt, int schemaVersion) {
        return new EventHeader(UUID.randomUUID(), type, aggregateId, partnerId, occurredAt, schemaVersion);
    }
}
