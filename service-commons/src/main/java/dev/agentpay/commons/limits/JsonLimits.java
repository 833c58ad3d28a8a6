package dev.agentpay.commons.limits;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.jackson.ObjectMapperCustomizer;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/**
 * Parser limits of the application's JSON reader (request bodies, and every internal read through
 * the shared {@link ObjectMapper}): a too-deep, too-long or too-many-digit document is refused as
 * {@code 400 invalid_json} before any object is built.
 */
@Singleton
public class JsonLimits implements ObjectMapperCustomizer {

    /** Limits of JSON parsing. */
    @ConfigMapping(prefix = "platform.json")
    public interface Config {

        /** Deepest nesting of objects and arrays accepted. */
        @WithDefault("32")
        int maxNestingDepth();

        /**
         * Longest string value, in characters. Request strings are bounded tighter by the body
         * limit; this guards internal reads.
         */
        @WithDefault("1048576")
        int maxStringLength();

        /** Most digits of a number (uint256 amounts need 78), so no huge-number parsing costs. */
        @WithDefault("100")
        int maxNumberLength();

        /** Longest property name, in characters. */
        @WithDefault("1024")
        int maxNameLength();
    }

    @Inject
    Config config;

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxNestingDepth(config.maxNestingDepth())
                .maxStringLength(config.maxStringLength())
                .maxNumberLength(config.maxNumberLength())
                .maxNameLength(config.maxNameLength())
                .build());
    }
}
