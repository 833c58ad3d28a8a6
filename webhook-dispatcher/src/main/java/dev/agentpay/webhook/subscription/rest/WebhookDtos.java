package dev.agentpay.webhook.subscription.rest;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.agentpay.webhook.delivery.domain.Attempt;
import dev.agentpay.webhook.delivery.domain.Delivery;
import dev.agentpay.webhook.subscription.domain.Subscription;
import dev.agentpay.webhook.delivery.service.Signatures;
import dev.agentpay.webhook.subscription.service.SubscriptionRules;
import dev.agentpay.webhook.subscription.service.SubscriptionService.DeliveryDetail;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.Null;
import jakarta.validation.constraints.Size;
import java.time.OffsetDateTime;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Request and response bodies of the webhook API. Secrets appear in requests, and (their Standard Webhooks
 * form) only in the answer to the request that gave them. Request bodies are bound by the platform's rules
 * ({@code commons.limits.StrictJson}: unknown fields and wrong JSON types refused, named by the error mappers).
 */
public final class WebhookDtos {

    private WebhookDtos() {
    }

    /** Shape rules of the request bodies (the address, event-type and secret-strength rules are {@code SubscriptionRules}'). */
    static final String REQUIRED = "required";
    static final String AT_LEAST_ONE_EVENT = "at least one event type required";
    static final String DESCRIPTION_TOO_LONG = "longer than {max} characters";
    /** What {@code SubscriptionRules.checkSecret} enforces, as the document states it ({@code 400 weak_secret} otherwise). */
    static final String SECRET_RULE = "the signing secret: " + SubscriptionRules.MIN_SECRET_LENGTH + " to "
            + SubscriptionRules.MAX_SECRET_LENGTH + " printable ASCII characters without spaces, at least "
            + SubscriptionRules.MIN_DISTINCT_SECRET_CHARS + " distinct; a `whsec_` secret carries base64 of 24 to 64 bytes."
            + " Anything else is `400 weak_secret`";

    @Schema(name = "CreateWebhookRequest", additionalProperties = Schema.False.class)
    public record CreateRequest(
            @NotBlank(message = REQUIRED) String url,
            @NotEmpty(message = AT_LEAST_ONE_EVENT) List<String> events,
            @NotEmpty(message = REQUIRED) @Schema(minLength = SubscriptionRules.MIN_SECRET_LENGTH,
                    maxLength = SubscriptionRules.MAX_SECRET_LENGTH, description = SECRET_RULE) String secret,
            @Size(max = SubscriptionRules.MAX_DESCRIPTION_LENGTH, message = DESCRIPTION_TOO_LONG) String description) {
    }

    /** PATCH body: what is sent changes; {@code secret} is only read to refuse it (rotation has its own endpoint). */
    @Schema(name = "UpdateWebhookRequest", additionalProperties = Schema.False.class)
    public record UpdateRequest(
            String url,
            @Size(min = 1, message = AT_LEAST_ONE_EVENT) List<String> events,
            @Size(max = SubscriptionRules.MAX_DESCRIPTION_LENGTH, message = DESCRIPTION_TOO_LONG) String description,
            @Null(message = "change it with POST /v1/webhooks/\\{id\\}/rotate-secret (keeps the old one valid for an overlap)")
            String secret) {
    }

    @Schema(name = "RotateWebhookSecretRequest", additionalProperties = Schema.False.class)
    public record RotateRequest(@NotEmpty(message = REQUIRED) @Schema(minLength = SubscriptionRules.MIN_SECRET_LENGTH,
            maxLength = SubscriptionRules.MAX_SECRET_LENGTH, description = SECRET_RULE + "; must differ from the current one")
            String secret, Long overlapSeconds) {
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

    /**
     * The answer to the two requests that carry a secret (create, rotate): the subscription plus
     * {@code standardWebhooksSecret}, the {@code whsec_} form of the secret just given, for verifying
     * {@code webhook-signature} with a Standard Webhooks library's defaults. The caller already holds that
     * secret; no other answer carries it.
     */
    public record SubscriptionWithSecret(@JsonUnwrapped SubscriptionView subscription, String standardWebhooksSecret) {

        public static SubscriptionWithSecret of(Subscription s, String secret) {
            return new SubscriptionWithSecret(SubscriptionView.of(s), Signatures.standardSecret(secret));
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
