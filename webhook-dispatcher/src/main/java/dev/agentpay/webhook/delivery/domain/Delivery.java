package dev.agentpay.webhook.delivery.domain;

import java.time.OffsetDateTime;
import java.util.UUID;

/** One event owed to one subscription, with its retry state. */
public record Delivery(
        UUID id,
        UUID subscriptionId,
        UUID eventId,
        String eventType,
        String status,
        int attempts,
        OffsetDateTime nextAttemptAt,
        Integer lastResponseCode,
        String lastError,
        OffsetDateTime createdAt,
        OffsetDateTime completedAt) {

    public static final String PENDING = "pending";
    public static final String SUCCEEDED = "succeeded";
    public static final String FAILED = "failed";
}
