package dev.agentpay.mandate.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.agentpay.commons.limits.JsonLimits;
import dev.agentpay.commons.limits.StrictJson;
import dev.agentpay.commons.rest.Envelope;
import dev.agentpay.mandate.signing.CanonicalJson;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;

/**
 * The JSON encoding of this service's API: how request bodies are read (the platform's rules plus
 * {@link #exact}, applied to the framework's mapper that binds the request records by {@link Reading}) and
 * the response bytes that idempotent replays return ({@link #MAPPER}, the same rules on a mapper of its own).
 */
public final class ApiJson {

    /** {@link JsonLimits}' mapper with the platform's reading rules ({@link StrictJson}) and this service's ({@link #exact}). */
    public static final ObjectMapper MAPPER = exact(StrictJson.apply(JsonLimits.newMapper()));

    private static final DateTimeFormatter MILLIS = new DateTimeFormatterBuilder().appendInstant(3).toFormatter();

    private ApiJson() {
    }

    /**
     * This service's reading rules on top of the platform's ({@link JsonLimits}: duplicate keys refused at
     * every depth, number and string limits, well-formed text; {@link StrictJson}: unknown fields, trailing
     * content and scalar coercion refused): decimals read exactly (so {@code terms} reach the canonical
     * encoding as sent), and nesting up to twice the depth {@code terms} may have, as the body wraps it (the
     * canonicalizer enforces the terms' own depth).
     */
    static ObjectMapper exact(ObjectMapper m) {
        m.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS);
        m.getFactory().setStreamReadConstraints(m.getFactory().streamReadConstraints().rebuild()
                .maxNestingDepth(CanonicalJson.MAX_DEPTH * 2).build());
        return m;
    }

    /** Applies {@link #exact} to the framework's mapper, after {@link JsonLimits} (lower priority runs later). */
    @Singleton
    public static class Reading implements ObjectMapperCustomizer {

        @Override
        public void customize(ObjectMapper mapper) {
            exact(mapper);
        }

        @Override
        public int priority() {
            return DEFAULT_PRIORITY - 1;
        }
    }

    /** The platform's success envelope ({@link Envelope}) as this service's bytes (idempotent replays return them). */
    public static String envelope(Object data) {
        return write(Envelope.of(data));
    }

    public static String write(Object value) {
        return write(MAPPER.writer(), value);
    }

    /** {@code value} as JSON text written by {@code writer} (one of {@link #MAPPER}'s, with its own features). */
    public static String write(ObjectWriter writer, Object value) {
        try {
            return writer.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("value cannot be encoded as JSON", e);
        }
    }

    /** ISO 8601 UTC with milliseconds, e.g. {@code 2030-01-01T00:00:00.000Z}; {@code null} stays null. */
    public static String time(Instant instant) {
        return instant == null ? null : MILLIS.format(instant);
    }
}
