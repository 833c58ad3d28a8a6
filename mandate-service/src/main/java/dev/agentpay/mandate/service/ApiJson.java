package dev.agentpay.mandate.service;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import dev.agentpay.commons.limits.JsonLimits;
import dev.agentpay.commons.rest.Envelope;
import dev.agentpay.mandate.signing.CanonicalJson;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;

/**
 * The JSON encoding of this service's API: how request bodies are read (the rules below, applied to the
 * framework's mapper that binds the request records, by {@link Reading}) and the response bytes that
 * idempotent replays return ({@link #MAPPER}, the same rules on a mapper of its own).
 */
public final class ApiJson {

    /** {@link JsonLimits}' mapper with this service's reading rules ({@link #configure}). */
    public static final ObjectMapper MAPPER = configure(JsonLimits.newMapper());

    private static final DateTimeFormatter MILLIS = new DateTimeFormatterBuilder().appendInstant(3).toFormatter();

    private ApiJson() {
    }

    /**
     * The reading rules of the mandate API on top of {@link JsonLimits}' (duplicate keys refused at every
     * depth, number and string limits, well-formed text): decimals read exactly (so {@code terms} reach the
     * canonical encoding as sent), trailing content and unknown fields refused, a number or boolean where
     * a string belongs refused rather than turned into text, and nesting up to twice the depth {@code terms}
     * may have, as the body wraps it (the canonicalizer enforces the terms' own depth).
     */
    public static ObjectMapper configure(ObjectMapper m) {
        m.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .enable(DeserializationFeature.USE_BIG_INTEGER_FOR_INTS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        m.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        m.getFactory().setStreamReadConstraints(m.getFactory().streamReadConstraints().rebuild()
                .maxNestingDepth(CanonicalJson.MAX_DEPTH * 2).build());
        return m;
    }

    /** Applies {@link #configure} to the framework's mapper, after {@link JsonLimits} (lower priority runs later). */
    @Singleton
    public static class Reading implements ObjectMapperCustomizer {

        @Override
        public void customize(ObjectMapper mapper) {
            configure(mapper);
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
