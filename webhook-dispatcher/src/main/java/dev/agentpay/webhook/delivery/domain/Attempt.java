package dev.agentpay.webhook.delivery.domain;

import java.time.OffsetDateTime;

/** One HTTP attempt of a delivery, as the delivery log shows it. */
public record Attempt(
        int attempt,
        boolean manual,
        OffsetDateTime startedAt,
        String outcome,
        Integer responseCode,
        int latencyMs,
        String error) {
}
