package dev.agentpay.invoice.x402.domain;

import java.util.Map;

/**
 * What a paid call answers: status, JSON body (already serialized) and x402 headers (challenge or
 * payment response).
 */
public record X402Result(int status, String body, Map<String, String> headers) {
}
