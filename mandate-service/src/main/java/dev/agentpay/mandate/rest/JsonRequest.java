package dev.agentpay.mandate.rest;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.error.ErrorMappers;
import dev.agentpay.commons.limits.JsonLimits;
import dev.agentpay.commons.limits.WellFormedText;
import dev.agentpay.mandate.service.ApiJson;
import dev.agentpay.mandate.signing.CanonicalJson;
import dev.agentpay.mandate.signing.JsDate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.time.Instant;
import java.util.Iterator;
import java.util.Set;

/**
 * A JSON object request body, checked in the order a client can act on: size (413), media type (415),
 * syntax ({@code invalid_json}), shape ({@code invalid_body}), then each field
 * ({@code validation_error} naming it).
 */
public final class JsonRequest {

    /** Fields whose raw text is kept and escaped by the canonicalizer rather than stored as parsed strings. */
    private static final Set<String> RAW_FIELDS = Set.of("terms");

    private final String text;
    private final ObjectNode node;

    private JsonRequest(String text, ObjectNode node) {
        this.text = text;
        this.node = node;
    }

    /**
     * Parses {@code body}. An empty body is an empty object when {@code optional}; otherwise a 400.
     *
     * @param allowed the only top-level fields accepted; any other is refused so that typos do not pass silently
     */
    public static JsonRequest parse(String contentType, String body, int maxBytes, boolean optional, Set<String> allowed) {
        String text = body == null ? "" : body;
        if (text.length() > maxBytes || text.getBytes(StandardCharsets.UTF_8).length > maxBytes) {
            throw new ApiException(413, "payload_too_large", "request body exceeds " + maxBytes + " bytes");
        }
        if (text.isBlank()) {
            if (optional) {
                return new JsonRequest("{}", ApiJson.MAPPER.createObjectNode());
            }
            throw ApiException.badRequest("invalid_json", "request body is required");
        }
        if (!isJson(contentType)) {
            throw new ApiException(415, "unsupported_media_type", "send the body as application/json");
        }
        JsonNode parsed;
        try {
            parsed = ApiJson.MAPPER.readTree(text);
        } catch (StreamConstraintsException e) {
            String m = String.valueOf(e.getMessage());
            throw ApiException.badRequest("invalid_json", m.startsWith("Number value length")
                    ? "request body has a number of more than " + JsonLimits.constraints().getMaxNumberLength() + " characters (the limit)"
                    : "request body nests or grows beyond the parser's limits");
        } catch (JsonProcessingException e) {
            String duplicate = ErrorMappers.duplicateKey(e);
            throw ApiException.badRequest("invalid_json", duplicate != null ? duplicate : "request body is not valid JSON");
        }
        if (!(parsed instanceof ObjectNode object)) {
            throw ApiException.badRequest("invalid_body", "request body must be a JSON object");
        }
        // a key repeated at any depth was refused by the parser (JsonLimits: STRICT_DUPLICATE_DETECTION)
        for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            if (!allowed.contains(field)) {
                throw ApiException.invalidField(field, "unknown field");
            }
        }
        // terms is kept as the client's raw text and canonicalized with JSON.stringify's escaping, so an
        // unpaired surrogate there is signable (the canonical vectors cover it); anywhere else it is refused
        WellFormedText.require(object, RAW_FIELDS);
        return new JsonRequest(text, object);
    }

    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        String type = contentType.split(";", 2)[0].trim().toLowerCase();
        return type.equals("application/json") || (type.startsWith("application/") && type.endsWith("+json"));
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

    /**
     * A required JSON object; returns its exact text from the body (so numbers and escapes reach the
     * canonicalizer untouched, which also enforces its own depth limit).
     */
    public String requiredObjectText(String field) {
        if (!has(field)) {
            throw ApiException.invalidField(field, "is required");
        }
        if (!node.get(field).isObject()) {
            throw ApiException.invalidField(field, "must be a JSON object");
        }
        String inexact = CanonicalJson.firstInexactNumber(node.get(field));
        if (inexact != null) {
            throw ApiException.invalidField(field + "." + inexact, "a number must keep its value through the canonical "
                    + "encoding (an IEEE double, as JavaScript's JSON.parse reads it): finite, at most about 1.8e308, "
                    + "not below 5e-324 unless 0, and at most 17 significant digits that round-trip; send it as a string");
        }
        return rawText(field);
    }

    /**
     * A party name ({@code proposer}, {@code counterparty}): a required string of at most
     * {@code maxLength} characters, in Unicode NFC, without control characters, format characters (bidi
     * overrides and isolates, zero-width characters, soft hyphen, BOM) or line and paragraph separators,
     * so that the name a reviewer reads in the public view is the name that was signed.
     */
    public String partyName(String field, int maxLength) {
        String s = requiredString(field, maxLength);
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            int type = Character.getType(cp);
            if (type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR) {
                throw ApiException.invalidField(field, String.format("must not contain control, bidi or zero-width "
                        + "characters (U+%04X at character %d)", cp, s.codePointCount(0, i) + 1));
            }
            i += Character.charCount(cp);
        }
        if (!Normalizer.isNormalized(s, Normalizer.Form.NFC)) {
            throw ApiException.invalidField(field, "must be in Unicode normalization form NFC (compose accents: "
                    + "\"é\" as U+00E9, not \"e\" + U+0301)");
        }
        return s;
    }

    /** An optional JSON object as compact JSON text, or {@code null}. */
    public String optionalObjectJson(String field, int maxDepth) {
        if (!has(field)) {
            return null;
        }
        objectText(field, maxDepth);
        return ApiJson.write(node.get(field));
    }

    private String objectText(String field, int maxDepth) {
        JsonNode v = node.get(field);
        if (!v.isObject()) {
            throw ApiException.invalidField(field, "must be a JSON object");
        }
        if (depth(v) > maxDepth) {
            throw ApiException.invalidField(field, "nests deeper than " + maxDepth + " levels");
        }
        return rawText(field);
    }

    /** A required ISO 8601 timestamp with a zone ({@code Z} or an offset). */
    public Instant requiredTimestamp(String field) {
        if (!has(field)) {
            throw ApiException.invalidField(field, "is required");
        }
        JsonNode v = node.get(field);
        if (!v.isTextual()) {
            throw ApiException.invalidField(field, "must be an ISO 8601 timestamp string");
        }
        try {
            // read as JavaScript's Date does, so the signed expires_at is the one the partner computes
            return JsDate.parse(v.asText());
        } catch (IllegalArgumentException e) {
            throw ApiException.invalidField(field, "must be an ISO 8601 timestamp with a time zone, for example "
                    + "2030-01-31T12:00:00.000Z (" + e.getMessage() + ")");
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
    private String rawText(String field) {
        try (JsonParser p = ApiJson.MAPPER.createParser(text)) {
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
            // the body was parsed successfully above; this cannot happen
            throw new IllegalStateException(e);
        }
        throw new IllegalStateException("field vanished: " + field);
    }
}
