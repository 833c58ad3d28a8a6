package dev.agentpay.mandate.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;

/**
 * The JSON encoding of this service's API. Independent of the framework's mapper so that request
 * parsing rules (exact decimals, duplicate keys refused) and the response bytes that idempotent
 * replays return are fixed here.
 */
public final class ApiJson {

    /**
     * Reads decimals exactly and refuses trailing content. Duplicate keys are refused at the top level of
     * a request ({@code JsonRequest}); inside {@code terms} the last one wins, as in {@code JSON.parse},
     * which is what the partner signed.
     */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private static final DateTimeFormatter MILLIS = new DateTimeFormatterBuilder().appendInstant(3).toFormatter();

    private ApiJson() {
    }

    /** The success envelope. */
    public record Envelope(boolean success, Object data) {
    }

    public static String envelope(Object data) {
        return write(new Envelope(true, data));
    }

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("response cannot be encoded", e);
        }
    }

    /** ISO 8601 UTC with milliseconds, e.g. {@code 2030-01-01T00:00:00.000Z}; {@code null} stays null. */
    public static String time(Instant instant) {
        return instant == null ? null : MILLIS.format(instant);
    }
}
