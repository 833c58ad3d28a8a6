package dev.agentpay.commons.events;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.util.List;

/**
 * The current state of one partner in the registry (compacted topic: the latest record per partner
 * wins). Carries only SHA-256 hashes of API keys; signing secrets never leave mandate-service.
 *
 * @param status        {@code active} or {@code revoked}
 * @param apiKeyHashes  lowercase hex SHA-256 of every API key currently valid for the partner
 */
public record PartnerEvent(
        @JsonUnwrapped EventHeader header,
        String name,
        String status,
        List<String> apiKeyHashes) implements DomainEvent {

    public static final String TYPE = "partner.updated";
    public static final int SCHEMA_VERSION = 1;
    public static final String ACTIVE = "active";
    public static final String REVOKED = "revoked";

    @Override
    public String topic() {
        return Topics.PARTNERS;
    }
}
