package dev.agentpay.webhook.subscription.domain;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/** A stored webhook subscription (secrets included: never serialize this record to a client). */
public record Subscription(
        UUID id,
        String partnerId,
        String url,
        List<String> events,
        String description,
        String secret,
        String previousSecret,
        OffsetDateTime previousSecretExpiresAt,
        String status,
        String disabledReason,
        OffsetDateTime disabledAt,
        OffsetDateTime failingSince,
        OffsetDateTime createdAt,
        OffsetDateTime updatedAt) {

    public static final String ACTIVE = "active";
    public static final String DISABLED = "disabled";

    /** Reasons a subscription is disabled. */
    public static final String REASON_MANUAL = "manual";
    public static final String REASON_GONE = "endpoint_gone";
    public static final String REASON_FAILING = "failing";
}
