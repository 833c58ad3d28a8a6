package dev.agentpay.commons.events;

import java.time.Instant;
import java.util.UUID;

/**
 * A mandate transition anchored on chain: the {@code MandateAnchored} log that carries it.
 * Type is always {@code anchor.receipt}; the aggregate is the mandate.
 */
public record AnchorReceiptEvent(
        UUID eventId,
        String type,
        String aggregateId,
        String partnerId,
        Instant occurredAt,
        int schemaVersion,
        String transitionId,
        String mandateHash,
        String state,
        long chainId,
        String txHash,
        long blockNumber,
        int logIndex) implements DomainEvent {

    public static final String TYPE = "anchor.receipt";
    public static final int SCHEMA_VERSION = 1;

    @Override
    public String topic() {
        return Topics.ANCHOR_RECEIPTS;
    }
}
