package dev.agentpay.commons.limits;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

/**
 * How every service binds a request body to its typed record, on top of {@link JsonLimits}' parser limits
 * (applied to the framework's mapper of every service, so to every request body):
 * <ul>
 * <li>a field the record does not declare is refused ({@code FAIL_ON_UNKNOWN_PROPERTIES}: a typo never
 * silently drops data; a record that keeps other members says so with {@code @JsonAnySetter} or
 * {@code @JsonIgnoreProperties(ignoreUnknown = true)});</li>
 * <li>no JSON scalar is coerced to another type: {@code "amount": "10"} is not a number,
 * {@code "name": 42} not a string, {@code "flag": "true"} not a boolean;</li>
 * <li>content after the document is refused ({@code {"a":1} x} is not JSON).</li>
 * </ul>
 * The refusals are the platform's {@code 400 validation_error} naming the field, or {@code invalid_json}
 * ({@code commons.error.ErrorMappers}). Reading a tree ({@code readTree}, {@code JsonNode} fields) is only
 * affected by the trailing-content rule: unknown fields and coercion concern typed binding, so internal
 * reads of JSON trees through the framework's mapper stay as they were. Mappers a service keeps for
 * events, chain RPC answers or x402 payloads are its own ({@code new ObjectMapper()}, {@code EventCodec},
 * {@link JsonLimits#newMapper}) and do not get these rules.
 */
@Singleton
public class StrictJson implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        apply(mapper);
    }

    /** The rules above, on any mapper (a mapper of a service's own that reads as its endpoints do, a test's). */
    public static ObjectMapper apply(ObjectMapper mapper) {
        mapper.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        for (LogicalType scalar : new LogicalType[] {LogicalType.Integer, LogicalType.Float, LogicalType.Boolean}) {
            mapper.coercionConfigFor(scalar)
                    .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
        }
        return mapper;
    }
}
