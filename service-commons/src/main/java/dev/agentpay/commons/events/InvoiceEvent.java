package dev.agentpay.commons.events;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.UUID;

/**
 * An invoice state change ({@code invoice.created}, {@code invoice.settled}, {@code invoice.unsettled}).
 *
 * @param invoice the full Invoice object as the API returns it (the webhook {@code data})
 */
public record InvoiceEvent(
        UUID eventId,
        String type,
        String aggregateId,
        String partnerId,
        Instant occurredAt,
        int schemaVersion,
        String status,
        JsonNode invoice) implements DomainEvent {

    public static final String CREATED = "invoice.created";
    public static final String SETTLED = "invoice.settled";
    public static final String UNSETTLED = "invoice.unsettled";
    public static final int SCHEMA_VERSION = 1;

    @Override
    public String topic() {
        return Topics.INVOICE_EVENTS;
    }
}
