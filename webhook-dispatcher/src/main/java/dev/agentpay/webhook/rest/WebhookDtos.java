package dev.agentpay.webhook.rest;

import dev.agentpay.webhook.domain.Attempt;
import dev.agentpay.webhook.domain.Delivery;
import dev.agentpay.webhook.domain.Subscription;
import dev.agentpay.webhook.service.SubscriptionService.DeliveryDetail;
import java.time.OffsetDateTime;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Request and response bodies of the webhook API. Secrets appear only in requests. */
public final class WebhookDtos {

    private WebhookDtos() {
    }

    @Schema(name = "CreateWebhookRequest")
    public record CreateRequest(String url, List<String> events, String secret, String description) {
    }

    /** PATCH body; {@code secret} is only read to refuse it (rotation has its own endpoint). */
    @Schema(name = "UpdateWebhookRequest")
    public record UpdateRequest(String url, List<String> events, String description, String secret) {
    }

    @Schema(name = "RotateWebhookSecretRequest")
    public record RotateRequest(String secret, Long overlapSeconds) {
    }

    public record SubscriptionView(String id, String url, List<String> events, String description, String status,
            String disabledReason, OffsetDateTime disabledAt, OffsetDateTime previousSecretExpiresAt,
            OffsetDateTime createdAt, OffsetDateTime updatedAt) {

        public static SubscriptionView of(Subscription s) {
            OffsetDateTime prev = s.previousSecretExpiresAt() != null && s.previousSecretExpiresAt().isAfter(OffsetDateTime.now())
                    ? s.previousSecretExpiresAt() : null;
            return new SubscriptionView(s.id().toString(), s.url(), s.events(), s.description(), s.status(),
                    s.disabledReason(), s.disabledAt(), prev, s.createdAt(), s.updatedAt());
        }
    }

    public record DeliveryView(String id, String eventId, String eventType, String status, int attemptCount,
            OffsetDateTime nextAttemptAt, Integer lastResponseCode, String lastError, OffsetDateTime createdAt,
            OffsetDateTime completedAt, List<AttemptView> attempts) {

        public static DeliveryView of(Delivery d, List<Attempt> attempts) {
            return new DeliveryView(d.id().toString(), d.eventId().toString(), d.eventType(), d.status(), d.attempts(),
                    d.nextAttemptAt(), d.lastResponseCode(), d.lastError(), d.createdAt(), d.completedAt(),
                    attempts == null ? null : attempts.stream().map(AttemptView::of).toList());
        }

        public static DeliveryView of(DeliveryDetail detail) {
            return of(detail.delivery(), detail.attempts());
        }
    }

    public record AttemptView(int attempt, String trigger, OffsetDateTime startedAt, String outcome, Integer responseCode,
            int latencyMs, String error) {

        static AttemptView of(Attempt a) {
            return new AttemptView(a.attempt(), a.manual() ? "manual" : "scheduled", a.startedAt(), a.outcome(),
                    a.responseCode(), a.latencyMs(), a.error());
        }
    }
}
