package dev.agentpay.discovery.mcp.service;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Checks tool arguments against the tool's published {@code inputSchema}: the same schema object
 * the sections and {@code tools/list} publish, so what is documented is what is enforced. Covers the
 * JSON Schema keywords the catalog uses (type, required, additionalProperties, minLength, maxLength,
 * pattern, enum, exclusiveMinimum, format email/uuid); a catalog using others fails its tests.
 */
public final class ArgumentValidator {

    private static final Pattern EMAIL = Pattern.compile("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$");
    private static final Pattern UUID = Pattern.compile("^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$");

    private ArgumentValidator() {
    }

    /** Every problem found, each naming its argument; empty when the arguments are valid. */
    public static List<String> problems(JsonNode schema, JsonNode args) {
        List<String> out = new ArrayList<>();
        JsonNode props = schema.path("properties");
        for (JsonNode r : schema.path("required")) {
            JsonNode v = args.get(r.asText());
            if (v == null || v.isNull()) {
                out.add(r.asText() + ": is required");
            }
        }
        Iterator<Map.Entry<String, JsonNode>> it = args.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode p = props.get(e.getKey());
            if (p == null) {
                if (schema.path("additionalProperties").isBoolean() && !schema.get("additionalProperties").asBoolean()) {
                    out.add(e.getKey() + ": unknown argument");
                }
                continue;
            }
            if (e.getValue().isNull() && !schema.path("required").toString().contains("\"" + e.getKey() + "\"")) {
                continue;
            }
            check(e.getKey(), p, e.getValue(), out);
        }
        return out;
    }

    private static void check(String name, JsonNode p, JsonNode v, List<String> out) {
        if (p.has("type") && !typeMatches(p.get("type"), v)) {
            out.add(name + ": must be " + p.get("type").toString().replace("\"", ""));
            return;
        }
        if (v.isTextual()) {
            String s = v.asText();
            int len = s.codePointCount(0, s.length());
            if (p.has("minLength") && len < p.get("minLength").asInt()) {
                out.add(name + ": must be at least " + p.get("minLength").asInt() + " characters");
            }
            if (p.has("maxLength") && len > p.get("maxLength").asInt()) {
                out.add(name + ": must be at most " + p.get("maxLength").asInt() + " characters");
            }
            if (p.has("pattern") && !pattern(p.get("pattern").asText()).matcher(s).find()) {
                out.add(name + ": does not have the expected form (" + p.get("pattern").asText() + ")");
            }
            String format = p.path("format").asText("");
            if (format.equals("email") && !EMAIL.matcher(s).matches()) {
                out.add(name + ": must be an email address");
            }
            if (format.equals("uuid") && !UUID.matcher(s).matches() && !p.has("pattern")) {
                out.add(name + ": must be a UUID");
            }
        }
        if (v.isArray()) {
            if (p.has("maxItems") && v.size() > p.get("maxItems").asInt()) {
                out.add(name + ": must have at most " + p.get("maxItems").asInt() + " items");
            }
            if (p.has("items")) {
                for (int i = 0; i < v.size(); i++) {
                    check(name + "[" + i + "]", p.get("items"), v.get(i), out);
                }
            }
        }
        if (v.isNumber() && !Double.isFinite(v.doubleValue()) && !v.isBigDecimal() && !v.isBigInteger()) {
            out.add(name + ": must be a finite number (at most about 1.8e308)");
            return;
        }
        if (v.isNumber() && p.has("exclusiveMinimum")
                && v.decimalValue().compareTo(new BigDecimal(p.get("exclusiveMinimum").asText())) <= 0) {
            out.add(name + ": must be greater than " + p.get("exclusiveMinimum").asText());
        }
        if (p.has("enum")) {
            boolean found = false;
            for (JsonNode e : p.get("enum")) {
                found |= e.equals(v);
            }
            if (!found) {
                out.add(name + ": must be one of " + p.get("enum"));
            }
        }
    }

    /**
     * A schema pattern compiled with ECMA-262 meaning, as JSON Schema defines it: there {@code $}
     * matches only at the very end, whereas Java's {@code $} also matches before a final line break
     * (so {@code "mnd_...\n"} would pass). Every {@code $} outside a character class and not escaped
     * becomes {@code \z}.
     */
    static Pattern pattern(String ecma) {
        return PATTERNS.computeIfAbsent(ecma, ArgumentValidator::compileEcma);
    }

    private static final Map<String, Pattern> PATTERNS = new java.util.concurrent.ConcurrentHashMap<>();

    private static Pattern compileEcma(String ecma) {
        StringBuilder java = new StringBuilder(ecma.length() + 4);
        boolean inClass = false;
        for (int i = 0; i < ecma.length(); i++) {
            char c = ecma.charAt(i);
            if (c == '\\' && i + 1 < ecma.length()) {
                java.append(c).append(ecma.charAt(++i));
                continue;
            }
            if (c == '[') {
                inClass = true;
            } else if (c == ']') {
                inClass = false;
            }
            java.append(c == '$' && !inClass ? "\\z" : String.valueOf(c));
        }
        return Pattern.compile(java.toString());
    }

    private static boolean typeMatches(JsonNode type, JsonNode v) {
        if (type.isArray()) {
            for (JsonNode t : type) {
                if (typeMatches(t, v)) {
                    return true;
                }
            }
            return false;
        }
        return switch (type.asText()) {
            case "string" -> v.isTextual();
            case "number" -> v.isNumber();
            case "integer" -> v.isIntegralNumber();
            case "boolean" -> v.isBoolean();
            case "object" -> v.isObject();
            case "array" -> v.isArray();
            case "null" -> v.isNull();
            default -> true;
        };
    }
}
