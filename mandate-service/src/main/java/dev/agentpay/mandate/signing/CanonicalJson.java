package dev.agentpay.mandate.signing;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code JSON.stringify(sortKeysDeep(JSON.parse(text)))} as a JavaScript partner computes it, where
 * {@code sortKeysDeep} rebuilds every object with {@code Object.keys(o).sort()} and maps arrays.
 *
 * <p>Three JavaScript behaviours are reproduced: numbers become IEEE doubles and print through
 * {@link EcmaNumber} ({@code 1e400} parses to Infinity and prints {@code null}); a duplicate key keeps
 * its last value; and objects enumerate array-index keys ({@code "0"}, {@code "42"}, canonical
 * integers below 2^32−1) first in numeric order, whatever order they were inserted in, then the other
 * keys in UTF-16 code-unit order. The key {@code "__proto__"} is refused: assigning it in
 * {@code sortKeysDeep} changes the prototype instead of adding a key, so common JavaScript
 * canonicalizers disagree on it.
 */
public final class CanonicalJson {

    /** Deepest nesting of objects and arrays accepted in terms; the terms object itself is level 1. */
    public static final int MAX_DEPTH = 32;

    /** Object key order JavaScript produces for the sorted keys: array indices numerically, then code units. */
    public static final Comparator<String> JS_KEY_ORDER = (a, b) -> {
        boolean ai = isArrayIndex(a);
        boolean bi = isArrayIndex(b);
        if (ai && bi) {
            return Long.compare(Long.parseLong(a), Long.parseLong(b));
        }
        if (ai != bi) {
            return ai ? -1 : 1;
        }
        return a.compareTo(b); // String.compareTo compares UTF-16 code units, as Array.prototype.sort does
    };

    private static final String PROTO = "__proto__";
    private static final long MAX_ARRAY_INDEX = 4_294_967_294L; // 2^32 - 2
    private static final Object NULL = new Object();

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_DEPTH * 2)
                    // JSON.parse accepts numbers of any length; the request body limit bounds them anyway
                    .maxNumberLength(100_000)
                    .build())
            .build();

    private CanonicalJson() {
    }

    /**
     * Canonical text of a JSON object text.
     *
     * @throws IllegalArgumentException if the text is not one JSON object, nests deeper than {@link #MAX_DEPTH}
     *         or contains the key {@code __proto__}
     */
    public static String canonicalObject(String json) {
        if (json == null) {
            throw new IllegalArgumentException("terms is required");
        }
        Object value;
        try (JsonParser p = FACTORY.createParser(json)) {
            JsonToken first = p.nextToken();
            if (first != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("terms must be a JSON object");
            }
            value = read(p, first, 1);
            if (p.nextToken() != null) {
                throw new IllegalArgumentException("terms must be a single JSON object; found more text after it");
            }
        } catch (JsonProcessingException e) {
            String where = e.getLocation() == null ? ""
                    : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
            throw new IllegalArgumentException("terms is not valid JSON: " + e.getOriginalMessage() + where);
        } catch (IOException e) {
            throw new IllegalArgumentException("terms could not be read: " + e.getMessage(), e);
        }
        StringBuilder out = new StringBuilder(json.length());
        write(out, value);
        return out.toString();
    }

    /**
     * Canonical text of an already parsed Jackson object node (numbers are taken as the doubles
     * JavaScript would read; an infinite double prints {@code null} as for {@code 1e400}).
     *
     * @throws IllegalArgumentException if the node is not an object, nests too deep or holds a non-JSON value
     */
    public static String canonicalObject(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("terms must be a JSON object");
        }
        StringBuilder out = new StringBuilder();
        write(out, fromNode(node, 1));
        return out.toString();
    }

    /**
     * The dotted path of the first number in {@code node} whose value the canonical encoding would change
     * (JavaScript reads it as an IEEE double: {@code 1e400} becomes Infinity and prints {@code null},
     * {@code 1e-400} becomes 0, {@code 123456789012345678901234567890} prints
     * {@code 1.2345678901234568e+29}), or {@code null} when every number keeps its value. A number keeps
     * its value when the text JavaScript prints for the double denotes the same decimal as the text sent
     * ({@code 0.1}, {@code 1.50}, {@code 1e2} do; trailing zeros and exponent form may change, the value not).
     * {@code node} must have been read with exact decimals.
     */
    public static String firstInexactNumber(JsonNode node) {
        if (node.isNumber()) {
            java.math.BigDecimal sent = node.decimalValue();
            double d = sent.doubleValue();
            return Double.isFinite(d) && new java.math.BigDecimal(EcmaNumber.toString(d)).compareTo(sent) == 0 ? null : "";
        }
        if (node.isContainerNode()) {
            int i = 0;
            for (Iterator<Map.Entry<String, JsonNode>> it = node.isObject() ? node.fields() : null; it != null && it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String inner = firstInexactNumber(e.getValue());
                if (inner != null) {
                    return inner.isEmpty() ? e.getKey() : e.getKey() + "." + inner;
                }
            }
            if (node.isArray()) {
                for (JsonNode child : node) {
                    String inner = firstInexactNumber(child);
                    if (inner != null) {
                        return inner.isEmpty() ? String.valueOf(i) : i + "." + inner;
                    }
                    i++;
                }
            }
        }
        return null;
    }

    /** {@code JSON.stringify(s)}: quotes and escapes like ECMAScript QuoteJSONString (well-formed JSON.stringify). */
    public static void quote(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0, len = s.length(); i < len; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        unicodeEscape(out, c);
                    } else if (Character.isHighSurrogate(c) && i + 1 < len && Character.isLowSurrogate(s.charAt(i + 1))) {
                        out.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        unicodeEscape(out, c); // lone surrogate
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** Whether JavaScript treats the key as an array index: a canonical decimal integer below 2^32−1. */
    static boolean isArrayIndex(String key) {
        int len = key.length();
        if (len == 0 || len > 10) {
            return false;
        }
        if (len > 1 && key.charAt(0) == '0') {
            return false;
        }
        for (int i = 0; i < len; i++) {
            char c = key.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return Long.parseLong(key) <= MAX_ARRAY_INDEX;
    }

    private static void unicodeEscape(StringBuilder out, char c) {
        out.append("\\u");
        String hex = Integer.toHexString(c);
        for (int i = hex.length(); i < 4; i++) {
            out.append('0');
        }
        out.append(hex);
    }

    private static Object read(JsonParser p, JsonToken token, int depth) throws IOException {
        switch (token) {
            case START_OBJECT: {
                checkDepth(depth);
                Map<String, Object> object = new TreeMap<>(JS_KEY_ORDER);
                JsonToken t;
                while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
                    String key = p.currentName();
                    checkKey(key);
                    object.put(key, read(p, p.nextToken(), depth + 1)); // last duplicate wins, as in JSON.parse
                }
                expect(t, JsonToken.END_OBJECT);
                return object;
            }
            case START_ARRAY: {
                checkDepth(depth);
                List<Object> array = new ArrayList<>();
                JsonToken t;
                while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                    if (t == null) {
                        throw new IllegalArgumentException("terms is not valid JSON: unexpected end of input");
                    }
                    array.add(read(p, t, depth + 1));
                }
                return array;
            }
            case VALUE_STRING:
                return p.getText();
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                // Read from the text: JavaScript rounds the decimal once to the nearest double.
                return Double.parseDouble(p.getText());
            case VALUE_TRUE:
                return Boolean.TRUE;
            case VALUE_FALSE:
                return Boolean.FALSE;
            case VALUE_NULL:
                return NULL;
            default:
                throw new IllegalArgumentException("terms is not valid JSON: unexpected " + token);
        }
    }

    private static void expect(JsonToken actual, JsonToken expected) {
        if (actual != expected) {
            throw new IllegalArgumentException("terms is not valid JSON: unexpected " + actual);
        }
    }

    private static Object fromNode(JsonNode node, int depth) {
        switch (node.getNodeType()) {
            case OBJECT: {
                checkDepth(depth);
                Map<String, Object> object = new TreeMap<>(JS_KEY_ORDER);
                Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
                while (fields.hasNext()) {
                    Map.Entry<String, JsonNode> field = fields.next();
                    checkKey(field.getKey());
                    object.put(field.getKey(), fromNode(field.getValue(), depth + 1));
                }
                return object;
            }
            case ARRAY: {
                checkDepth(depth);
                List<Object> array = new ArrayList<>(node.size());
                for (JsonNode element : node) {
                    array.add(fromNode(element, depth + 1));
                }
                return array;
            }
            case STRING:
                return node.textValue();
            case NUMBER: {
                double d;
                if (node.isIntegralNumber()) {
                    d = node.bigIntegerValue().doubleValue();
                } else if (node.isBigDecimal()) {
                    d = node.decimalValue().doubleValue();
                } else {
                    d = node.doubleValue();
                }
                if (Double.isNaN(d)) {
                    throw new IllegalArgumentException("terms must not contain NaN");
                }
                return d;
            }
            case BOOLEAN:
                return node.booleanValue();
            case NULL:
                return NULL;
            default:
                throw new IllegalArgumentException("terms holds a value that is not JSON: " + node.getNodeType());
        }
    }

    private static void checkDepth(int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("terms nests deeper than " + MAX_DEPTH + " levels");
        }
    }

    private static void checkKey(String key) {
        if (PROTO.equals(key)) {
            throw new IllegalArgumentException("terms must not contain the key \"__proto__\"");
        }
    }

    @SuppressWarnings("unchecked")
    private static void write(StringBuilder out, Object value) {
        if (value instanceof Map) {
            out.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : ((Map<String, Object>) value).entrySet()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                quote(out, e.getKey());
                out.append(':');
                write(out, e.getValue());
            }
            out.append('}');
        } else if (value instanceof List) {
            out.append('[');
            boolean first = true;
            for (Object element : (List<Object>) value) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                write(out, element);
            }
            out.append(']');
        } else if (value instanceof String s) {
            quote(out, s);
        } else if (value instanceof Double d) {
            out.append(EcmaNumber.toJson(d));
        } else if (value instanceof Boolean b) {
            out.append(b ? "true" : "false");
        } else {
            out.append("null");
        }
    }
}
