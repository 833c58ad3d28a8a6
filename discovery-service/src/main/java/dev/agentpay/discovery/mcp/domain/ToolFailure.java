package dev.agentpay.discovery.mcp.domain;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A tool call that did not succeed: a readable reason for the caller and the structured details
 * ({@code structuredContent} of the {@code isError} result).
 */
public record ToolFailure(String reason, JsonNode structured) {
}
