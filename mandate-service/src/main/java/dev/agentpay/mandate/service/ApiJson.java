package dev.agentpay.mandate.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.commons.limits.JsonLimits;
import dev.agentpay.commons.rest.Envelope;
import dev.agentpay.mandate.signing.CanonicalJson;
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
     * Reads as every endpoint of the platform does ({@code JsonLimits}: duplicate keys refused at every
     * depth, numbers at most 100 digits), with decimals read exactly and trailing content refused. The
     * nesting limit is twice the depth {@code terms} may have, as the body wraps it.
     */
    public static final ObjectMapper MAPPER = mapper();

    private static ObjectMapper mapper() {
        ObjectMapper m = JsonLimits.newMapper()
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        m.getFactory().setStreamReadConstraints(JsonLimits.constraints().rebuild()
                .maxNestingDepth(CanonicalJson.MAX_DEPTH * 2).build());
        return m;
    }

    private static final DateTimeFormatter MILLIS = new DateTimeFormatterBuilder().appendInstant(3).toFormatter();

    private ApiJson() {
    }

    /** The platform's success envelope ({@link Envelope}) as this service's bytes (idempotent replays return them). */
    public static String envelope(Object data) {
        return write(Envelope.of(data));
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
