package dev.agentpay.commons.rest;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.error.ErrorMappers;
import dev.agentpay.commons.limits.JsonLimits;
import dev.agentpay.commons.limits.WellFormedText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Set;

/**
 * The one reader of JSON request bodies that a resource takes as text (because it needs the raw
 * bytes, or accepts any content type): checked in the order a client can act on: size (413), media
 * type (415), syntax ({@code invalid_json}: duplicate keys at any depth, {@link JsonLimits}' limits),
 * shape ({@code invalid_body}), unknown top-level fields, then each field ({@code validation_error}
 * naming it). Resources that need no raw text take a typed record, read by the framework's reader with
 * the same {@link JsonLimits} mapper and {@link ErrorMappers}.
 */
public final class JsonRequest {

    /**
     * The strict request mapper: {@link JsonLimits}' rules, decimals read exactly (so an amount is the
     * sent value, never a double's approximation), trailing content refused.
     */
    public static final ObjectMapper MAPPER = JsonLimits.newMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final ObjectMapper mapper;
    private final String text;
    private final ObjectNode node;

    private JsonRequest(ObjectMapper mapper, String text, ObjectNode node) {
        this.mapper = mapper;
        this.text = text;
        this.node = node;
    }

    /** {@link #parse(ObjectMapper, String, String, int, boolean, Set, Set)} with {@link #MAPPER}, no raw fields. */
    public static JsonRequest parse(String contentType, String body, int maxBytes, boolean optional, Set<String> allowed) {
        return parse(MAPPER, contentType, body, maxBytes, optional, allowed, Set.of());
    }

    /**
     * Parses {@code body}. An empty body is an empty object when {@code optional}; otherwise a 400.
     *
     * @param contentType the request's Content-Type; {@code null} skips the check (a resource that declares
     *            {@code @Consumes} has it checked by the framework)
     * @param allowed the only top-level fields accepted; any other is refused so that typos do not pass silently
     * @param rawFields fields kept as the client's raw text, where ill-formed UTF-16 is not refused here
     */
    public static JsonRequest parse(ObjectMapper mapper, String contentType, String body, int maxBytes, boolean optional,
            Set<String> allowed, Set<String> rawFields) {
        String text = body == null ? "" : body;
        if (text.length() > maxBytes || text.getBytes(StandardCharsets.UTF_8).length > maxBytes) {
            throw new ApiException(413, "payload_too_large", "request body exceeds " + maxBytes + " bytes");
        }
        if (text.isBlank()) {
            if (optional) {
                return new JsonRequest(mapper, "{}", mapper.createObjectNode());
            }
            throw ApiException.badRequest("invalid_json", "request body is required");
        }
        if (contentType != null && !isJson(contentType)) {
            throw new ApiException(415, "unsupported_media_type", "send the body as application/json");
        }
        JsonNode parsed;
        try {
            parsed = mapper.readTree(text);
        } catch (StreamConstraintsException e) {
            throw ApiException.badRequest("invalid_json", ErrorMappers.limitMessage(e));
        } catch (JsonProcessingException e) {
            String duplicate = ErrorMappers.duplicateKey(e);
            throw ApiException.badRequest("invalid_json", duplicate != null ? duplicate : "request body is not valid JSON");
        }
        if (!(parsed instanceof ObjectNode object)) {
            throw ApiException.badRequest("invalid_body", "request body must be a JSON object");
        }
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!allowed.contains(field)) {
                throw ApiException.invalidField(field, "unknown field");
            }
        }
        WellFormedText.require(object, rawFields);
        return new JsonRequest(mapper, text, object);
    }

    /** {@code application/json} or any {@code application/*+json}. */
    public static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String type = contentType.split(";", 2)[0].trim().toLowerCase();
        return type.equals("application/json") || (type.startsWith("application/") && type.endsWith("+json"));
    }

    /** The parsed body. */
    public ObjectNode node() {
        return node;
    }

    /** The field's value, or {@code null} when absent. */
    public JsonNode get(String field) {
        return node.get(field);
    }

    public boolean has(String field) {
        JsonNode v = node.get(field);
        return v != null && !v.isNull();
    }

    /** The field's text when it is a JSON string, otherwise {@code null}. */
    public String textOrNull(String field) {
        JsonNode v = node.get(field);
        return v != null && v.isTextual() ? v.asText() : null;
    }

    /** A required non-blank string of at most {@code maxLength} characters. */
    public String requiredString(String field, int maxLength) {
        if (!has(field)) {
            throw ApiException.invalidField(field, "is required");
        }
        return string(field, maxLength);
    }

    /** An optional string (null when absent); blank counts as absent. */
    public String optionalString(String field, int maxLength) {
        if (!has(field)) {
            return null;
        }
        JsonNode v = node.get(field);
        if (v.isTextual() && v.asText().isBlank()) {
            return null;
        }
        return string(field, maxLength);
    }

    private String string(String field, int maxLength) {
        JsonNode v = node.get(field);
        if (!v.isTextual()) {
            throw ApiException.invalidField(field, "must be a string");
        }
        String s = v.asText();
        if (s.isBlank()) {
            throw ApiException.invalidField(field, "must not be blank");
        }
        if (s.length() > maxLength) {
            throw ApiException.invalidField(field, "must be at most " + maxLength + " characters");
        }
        return s;
    }

    /** A required JSON object field. */
    public JsonNode requiredObject(String field) {
        if (!has(field)) {
            throw ApiException.invalidField(field, "is required");
        }
        return object(field);
    }

    private JsonNode object(String field) {
        JsonNode v = node.get(field);
        if (!v.isObject()) {
            throw ApiException.invalidField(field, "must be a JSON object");
        }
        return v;
    }

    /** An optional JSON object as compact JSON text, or {@code null}. */
    public String optionalObjectJson(String field, int maxDepth) {
        if (!has(field)) {
            return null;
        }
        JsonNode v = object(field);
        if (depth(v) > maxDepth) {
            throw ApiException.invalidField(field, "nests deeper than " + maxDepth + " levels");
        }
        try {
            return mapper.writeValueAsString(v);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("request field cannot be encoded", e);
        }
    }

    private static int depth(JsonNode n) {
        int max = 0;
        for (JsonNode child : n) {
            max = Math.max(max, depth(child));
        }
        return (n.isContainerNode() ? 1 : 0) + max;
    }

    /** The characters of a top-level field's value exactly as the client sent them. */
    public String rawText(String field) {
        try (JsonParser p = mapper.createParser(text)) {
            p.nextToken(); // START_OBJECT
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                if (name.equals(field)) {
                    int start = (int) p.currentTokenLocation().getCharOffset();
                    p.skipChildren();
                    int end = (int) p.currentLocation().getCharOffset();
                    return text.substring(start, end);
                }
                p.skipChildren();
            }
        } catch (IOException e) {
            // the body was parsed successfully before; this cannot happen
            throw new IllegalStateException(e);
        }
        throw new IllegalStateException("field vanished: " + field);
    }
}
