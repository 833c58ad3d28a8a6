package dev.agentpay.invoice.x402.domain;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/** What a paid call answers: status, JSON body and x402 headers (challenge or payment response). */
public record X402Result(int status, JsonNode body, Map<String, String> headers) {
}
