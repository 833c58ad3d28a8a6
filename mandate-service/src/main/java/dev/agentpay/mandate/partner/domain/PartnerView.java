package dev.agentpay.mandate.partner.domain;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * A partner as the admin API shows it. {@code api_key} and {@code signing_secret} appear only in the
 * answer that created them (issue, rotation); they are omitted everywhere else.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"id", "name", "status", "created_at", "updated_at", "api_key", "signing_secret"})
public record PartnerView(
        String id,
        String name,
        String status,
        String createdAt,
        String updatedAt,
        @JsonInclude(JsonInclude.Include.NON_NULL) String apiKey,
        @JsonInclude(JsonInclude.Include.NON_NULL) String signingSecret) {
}
