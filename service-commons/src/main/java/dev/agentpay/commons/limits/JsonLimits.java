package dev.agentpay.commons.limits;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Parser limits of the application's JSON reader (request bodies, and every internal read through
 * the shared {@link ObjectMapper}): a too-deep, too-long or too-many-digit document is refused as
 * {@code 400 invalid_json} before any object is built.
 *
 * <p>Properties (read with {@link ConfigProvider} because Quarkus builds the mapper during static
 * initialisation, before {@code @ConfigMapping} interfaces exist):
 * <ul>
 * <li>{@code platform.json.max-nesting-depth} (32): deepest nesting of objects and arrays;</li>
 * <li>{@code platform.json.max-string-length} (1 MiB): longest string value; request strings are
 * bounded tighter by the body limit, this guards internal reads;</li>
 * <li>{@code platform.json.max-number-length} (100): most digits of a number (uint256 amounts need
 * 78), so no huge-number parsing costs;</li>
 * <li>{@code platform.json.max-name-length} (1024): longest property name.</li>
 * </ul>
 * A document's length is bounded by the per-route body limits of {@link BodyLimitFilter} (Jackson's
 * own document-length limit does not apply to in-memory input).
 * Every read also refuses a duplicate key at any depth ({@code STRICT_DUPLICATE_DETECTION}).
 */
@Singleton
public class JsonLimits implements ObjectMapperCustomizer {

    public static final int DEFAULT_MAX_NESTING_DEPTH = 32;
    public static final int DEFAULT_MAX_STRING_LENGTH = 1 << 20;
    public static final int DEFAULT_MAX_NUMBER_LENGTH = 100;
    public static final int DEFAULT_MAX_NAME_LENGTH = 1024;

    @Override
    public void customize(ObjectMapper mapper) {
        apply(mapper, config());
    }

    /**
     * A new mapper that reads as every endpoint of the platform does, for code that keeps a mapper of its
     * own (a static field, a client's answers): the same limits, duplicate keys refused at every depth,
     * well-formed text. Reading rules a caller adds (exact decimals, trailing tokens) go on top.
     */
    public static ObjectMapper newMapper() {
        ObjectMapper m = new ObjectMapper();
        apply(m, config());
        return m;
    }

    static void apply(ObjectMapper mapper, Config config) {
        mapper.getFactory().setStreamReadConstraints(constraints(config));
        // {"amount":1,"amount":1000}: a reviewer or proxy reading the first value must not see another
        // amount than the one acted on, so a repeated key is a parse error wherever it is.
        mapper.getFactory().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        mapper.registerModule(WellFormedText.jacksonModule());
    }

    private static Config config() {
        try {
            return ConfigProvider.getConfig();
        } catch (RuntimeException | LinkageError e) {
            return null; // outside an application (a plain unit test): the defaults
        }
    }

    /** The configured parser limits, for a mapper that changes one of them (a deeper nesting, say). */
    public static StreamReadConstraints constraints() {
        return constraints(config());
    }

    static StreamReadConstraints constraints(Config config) {
        return StreamReadConstraints.builder()
                .maxNestingDepth(value(config, "platform.json.max-nesting-depth", DEFAULT_MAX_NESTING_DEPTH))
                .maxStringLength(value(config, "platform.json.max-string-length", DEFAULT_MAX_STRING_LENGTH))
                .maxNumberLength(value(config, "platform.json.max-number-length", DEFAULT_MAX_NUMBER_LENGTH))
                .maxNameLength(value(config, "platform.json.max-name-length", DEFAULT_MAX_NAME_LENGTH))
                .build();
    }

    private static int value(Config config, String name, int fallback) {
        return config == null ? fallback : config.getOptionalValue(name, Integer.class).orElse(fallback);
    }
}
