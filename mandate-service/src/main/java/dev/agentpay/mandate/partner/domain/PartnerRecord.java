package dev.agentpay.mandate.partner.domain;

import java.time.Instant;

/** A partner as stored by mandate-service: the only place its signing secret lives. */
public record PartnerRecord(
        String id,
        String name,
        String status,
        String apiKeyHash,
        String signingSecret,
        Instant createdAt,
        Instant updatedAt) {

    public PartnerRecord with(String name, String status, String apiKeyHash, String signingSecret, Instant updatedAt) {
        return new PartnerRecord(id, name, status, apiKeyHash, signingSecret, createdAt, updatedAt);
    }
}
