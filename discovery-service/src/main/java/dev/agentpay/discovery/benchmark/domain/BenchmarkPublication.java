package dev.agentpay.discovery.benchmark.domain;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The body of {@code POST /disco/benchmark/publish}: an ATRR benchmark run. Its field rules are the
 * constraints below, the same as the published JSON Schema {@code reference/benchmark-publish.schema.json}
 * ({@code BenchmarkTest} checks the two agree); the consistency rules that schema states in words are
 * {@code BenchmarkValidator}'s. Numbers must be JSON numbers (the string {@code "18"} is refused), and an
 * integer may be written {@code 18.0} (JSON Schema's {@code integer}). Other top-level members (e.g.
 * {@code harness}) are kept with the document.
 */
@Schema(name = "BenchmarkPublishRequest")
public record BenchmarkPublication(
        @NotNull(message = ATRR) @Pattern(regexp = "^" + METRIC + "$", message = ATRR) String metric,
        @JsonProperty("tasks_total") @JsonDeserialize(using = JsonNumber.class)
        @NotNull(message = TOTAL) @Digits(integer = 4, fraction = 0, message = TOTAL)
        @DecimalMin(value = "1", message = TOTAL) @DecimalMax(value = "1000", message = TOTAL) BigDecimal tasksTotal,
        @JsonProperty("tasks_completed") @JsonDeserialize(using = JsonNumber.class)
        @NotNull(message = COUNT) @Digits(integer = 4, fraction = 0, message = COUNT)
        @DecimalMin(value = "0", message = COUNT) @DecimalMax(value = "1000", message = COUNT) BigDecimal tasksCompleted,
        @JsonDeserialize(using = JsonNumber.class)
        @NotNull(message = SCORE) @DecimalMin(value = "0", message = SCORE) @DecimalMax(value = "1", message = SCORE) BigDecimal score,
        @JsonProperty("task_classes") @NotEmpty(message = "must be a non-empty array")
        List<@NotNull(message = "must be an object") @Valid TaskClass> taskClasses,
        @JsonProperty("run_at") @NotNull(message = INSTANT) @Pattern(regexp = RFC3339, message = INSTANT) String runAt,
        @JsonProperty("raw_logs") @NotEmpty(message = LOGS) @Size(max = MAX_LOG_ENTRIES, message = LOGS)
        List<@NotNull(message = "each log record must be a JSON object") ObjectNode> rawLogs,
        @JsonAnySetter @JsonAnyGetter @Schema(hidden = true) Map<String, JsonNode> other) {

    public static final String METRIC = "ATRR";
    public static final int MAX_LOG_ENTRIES = 10_000;
    /** An RFC 3339 instant, as the published schema's {@code run_at} pattern has it. */
    static final String RFC3339 = "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-5][0-9](\\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$";

    static final String ATRR = "must be \"ATRR\"";
    static final String TOTAL = "must be an integer between 1 and 1000";
    static final String COUNT = "must be an integer between 0 and 1000";
    static final String SCORE = "must be a number between 0 and 1";
    static final String INSTANT = "must be an ISO 8601 instant";
    static final String LOGS = "must be a non-empty array of at most " + MAX_LOG_ENTRIES + " log records";

    /**
     * One class of tasks of the run. Other members are allowed (the published schema does not close the object)
     * and not kept, so they are exempt from the platform's refusal of unknown fields ({@code StrictJson}).
     */
    @Schema(name = "BenchmarkTaskClass")
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record TaskClass(
            @NotBlank(message = "is required") String name,
            @JsonDeserialize(using = JsonNumber.class) @NotNull(message = COUNT) @Digits(integer = 4, fraction = 0, message = COUNT)
            @DecimalMin(value = "0", message = COUNT) @DecimalMax(value = "1000", message = COUNT) BigDecimal attempted,
            @JsonDeserialize(using = JsonNumber.class) @NotNull(message = COUNT) @Digits(integer = 4, fraction = 0, message = COUNT)
            @DecimalMin(value = "0", message = COUNT) @DecimalMax(value = "1000", message = COUNT) BigDecimal completed) {
    }

    /**
     * A JSON number and nothing else: Jackson's default would read the string {@code "18"} as 18 (scalar
     * coercion), which the published schema refuses. Read exactly, without trailing fractional zeros, so
     * {@code 18.0} is the integer 18 as JSON Schema counts it ({@code @Digits} counts a BigDecimal's scale).
     */
    public static final class JsonNumber extends StdScalarDeserializer<BigDecimal> {

        public JsonNumber() {
            super(BigDecimal.class);
        }

        @Override
        public BigDecimal deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.currentToken().isNumeric()) {
                return (BigDecimal) ctxt.handleUnexpectedToken(BigDecimal.class, p);
            }
            BigDecimal v = p.getDecimalValue().stripTrailingZeros();
            return v.scale() < 0 ? v.setScale(0) : v;
        }
    }
}
