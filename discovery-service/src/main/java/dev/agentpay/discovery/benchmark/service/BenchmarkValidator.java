package dev.agentpay.discovery.benchmark.service;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.limits.WellFormedText;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * The shape a published ATRR benchmark must have. The spec only says "a JSON document"; an
 * operator publishing a figure agents will trust must be able to show where it came from, so the
 * counts must add up and the raw logs travel with the document. Published for clients as the JSON
 * Schema {@code /disco/reference/benchmark-publish.schema.json} (plus the consistency rules it states);
 * {@code BenchmarkTest} checks the two agree.
 */
public final class BenchmarkValidator {

    public static final String METRIC = "ATRR";
    public static final int MAX_LOG_ENTRIES = 10_000;

    private BenchmarkValidator() {
    }

    public static void validate(JsonNode doc) {
        if (doc == null || !doc.isObject()) {
            throw ApiException.badRequest("invalid_benchmark", "the body must be a JSON object");
        }
        WellFormedText.require(doc, java.util.Set.of());
        if (!METRIC.equals(doc.path("metric").asText(null))) {
            throw ApiException.invalidField("metric", "must be \"ATRR\"");
        }
        int total = positiveInt(doc, "tasks_total", 1, 1000);
        int completed = positiveInt(doc, "tasks_completed", 0, total);
        JsonNode score = doc.get("score");
        if (score == null || !score.isNumber() || score.asDouble() < 0 || score.asDouble() > 1) {
            throw ApiException.invalidField("score", "must be a number between 0 and 1");
        }
        if (Math.abs(score.asDouble() - (double) completed / total) > 0.005) {
            throw ApiException.invalidField("score", "must equal tasks_completed / tasks_total");
        }
        JsonNode classes = doc.get("task_classes");
        if (classes == null || !classes.isArray() || classes.isEmpty()) {
            throw ApiException.invalidField("task_classes", "must be a non-empty array");
        }
        int attemptedSum = 0;
        int completedSum = 0;
        for (JsonNode c : classes) {
            if (!c.path("name").isTextual() || c.get("name").asText().isBlank()) {
                throw ApiException.invalidField("task_classes[].name", "is required");
            }
            int a = positiveInt(c, "attempted", 0, total);
            attemptedSum += a;
            completedSum += positiveInt(c, "completed", 0, a);
        }
        if (attemptedSum != total || completedSum != completed) {
            throw ApiException.invalidField("task_classes", "attempted and completed must add up to tasks_total and tasks_completed");
        }
        String runAt = doc.path("run_at").asText(null);
        try {
            if (runAt == null) {
                throw new DateTimeParseException("missing", "", 0);
            }
            Instant.parse(runAt);
        } catch (DateTimeParseException e) {
            throw ApiException.invalidField("run_at", "must be an ISO 8601 instant");
        }
        JsonNode logs = doc.get("raw_logs");
        if (logs == null || !logs.isArray() || logs.isEmpty() || logs.size() > MAX_LOG_ENTRIES) {
            throw ApiException.invalidField("raw_logs", "must be a non-empty array of at most " + MAX_LOG_ENTRIES + " log records");
        }
        for (JsonNode l : logs) {
            if (!l.isObject()) {
                throw ApiException.invalidField("raw_logs[]", "each log record must be a JSON object");
            }
        }
    }

    private static int positiveInt(JsonNode doc, String field, int min, int max) {
        JsonNode v = doc.get(field);
        // JSON Schema's "integer" (the published schema): any number with a zero fractional part, 18.0 too
        boolean integer = v != null && (v.isIntegralNumber()
                || (v.isNumber() && Double.isFinite(v.asDouble()) && v.decimalValue().stripTrailingZeros().scale() <= 0));
        if (!integer || v.asLong() < min || v.asLong() > max) {
            throw ApiException.invalidField(field, "must be an integer between " + min + " and " + max);
        }
        return v.asInt();
    }
}
