package dev.agentpay.invoice.x402.domain;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One way to pay a call, in x402 v1 form (the body of a 402 and what the facilitator receives) plus
 * its v2 network name and its rail. Serialized, it is the v1 {@code PaymentRequirements} object, its
 * fields in this order ({@code Challenges.v1}).
 */
@JsonIgnoreProperties({"v2Network", "rail"})
public record PaymentRequirement(String scheme, String network, String maxAmountRequired, String resource,
        String description, String mimeType, JsonNode outputSchema, String payTo, int maxTimeoutSeconds,
        String asset, ObjectNode extra, String v2Network, DecodedPayment.Rail rail) {
}
