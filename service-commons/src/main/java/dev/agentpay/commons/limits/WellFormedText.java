package dev.agentpay.commons.limits;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.deser.std.StringDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import dev.agentpay.commons.error.ApiException;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Refuses text PostgreSQL cannot store as sent: a JSON escape (in a value or a field name) that leaves a
 * UTF-16 surrogate such as U+D800 unpaired, or a NUL character (U+0000). For an
 * unpaired surrogate the driver's UTF-8 encoder writes {@code ?} and may mangle the character after
 * it into an invalid byte, so the insert fails (a 500) or the stored value silently differs from the
 * one that was signed; text columns refuse NUL outright. Request fields are checked where they are
 * read, so the client gets a 400 naming the field.
 */
public final class WellFormedText {

    public static final String MESSAGE = "must be well-formed Unicode text without NUL characters "
            + "(no unpaired UTF-16 surrogate, no \\u0000)";

    private WellFormedText() {
    }

    /** Whether every surrogate in {@code s} is part of a high-low pair and there is no NUL. */
    public static boolean isWellFormed(CharSequence s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                } else {
                    return false;
                }
            } else if (Character.isLowSurrogate(c) || c == '\u0000') {
                return false;
            }
        }
        return true;
    }

    /**
     * Refuses a request body with a 400 naming the first ill-formed string (see
     * {@link #firstIllFormed}); top-level fields in {@code skip} are left to their owner.
     */
    public static void require(JsonNode node, Set<String> skip) {
        String illFormed = firstIllFormed(node, skip);
        if (illFormed != null) {
            throw ApiException.invalidField(illFormed, MESSAGE);
        }
    }

    /**
     * The dotted path (top-level field first) of the first ill-formed string value or field name in
     * {@code node}, or {@code null} when all text is well formed. Top-level fields in {@code skip} are
     * not looked at (a field whose raw text is kept and escaped by its owner).
     */
    public static String firstIllFormed(JsonNode node, Set<String> skip) {
        if (node == null) {
            return null;
        }
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (skip.contains(e.getKey())) {
                    continue;
                }
                if (!isWellFormed(e.getKey())) {
                    return "field name";
                }
                String inner = firstIllFormed(e.getValue(), Set.of());
                if (inner != null) {
                    return inner.isEmpty() ? e.getKey() : e.getKey() + "." + inner;
                }
            }
            return null;
        }
        if (node.isArray()) {
            int i = 0;
            for (JsonNode child : node) {
                String inner = firstIllFormed(child, Set.of());
                if (inner != null) {
                    return inner.isEmpty() ? String.valueOf(i) : i + "." + inner;
                }
                i++;
            }
            return null;
        }
        return node.isTextual() && !isWellFormed(node.textValue()) ? "" : null;
    }

    /**
     * A Jackson module whose {@code String} deserializer refuses ill-formed text, so request records
     * bound by Jackson fail as a mismatched input naming the field (the error mappers answer 400).
     */
    public static SimpleModule jacksonModule() {
        return new SimpleModule("well-formed-text").addDeserializer(String.class, new Strings());
    }

    static final class Strings extends StdScalarDeserializer<String> {

        Strings() {
            super(String.class);
        }

        @Override
        public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String s = StringDeserializer.instance.deserialize(p, ctxt);
            if (s != null && !isWellFormed(s)) {
                return (String) ctxt.handleWeirdStringValue(String.class, s, MESSAGE);
            }
            return s;
        }
    }
}
