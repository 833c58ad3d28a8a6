package dev.agentpay.discovery.console.domain;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An API answer as the console's templates read it: objects as {@link Fields} (a map in which every name
 * "exists", an absent member reading as {@code null}, so {@code {#if invoice.description}} is simply false
 * where the API left the member out), arrays as lists, scalars as their Java values. Text stays text: the
 * templates escape it when they write it.
 */
public final class JsonView {

    private JsonView() {
    }

    /** An object of the API: a missing member is {@code null}, not an unresolvable name. */
    public static final class Fields extends LinkedHashMap<String, Object> {
        @Override
        public boolean containsKey(Object key) {
            return true;
        }
    }

    public static Object of(JsonNode n) {
        if (n == null || n.isNull() || n.isMissingNode()) {
            return null;
        }
        if (n.isObject()) {
            Fields m = new Fields();
            n.fields().forEachRemaining(e -> m.put(e.getKey(), of(e.getValue())));
            return m;
        }
        if (n.isArray()) {
            List<Object> l = new ArrayList<>(n.size());
            n.forEach(x -> l.add(of(x)));
            return l;
        }
        if (n.isBoolean()) {
            return n.booleanValue();
        }
        if (n.isIntegralNumber()) {
            return n.canConvertToLong() ? (Object) n.longValue() : n.bigIntegerValue();
        }
        if (n.isNumber()) {
            return n.decimalValue().stripTrailingZeros().toPlainString();
        }
        return n.asText();
    }

    /** Objects of the API as a map (an absent object: an empty one). */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(JsonNode n) {
        Object o = of(n);
        return o instanceof Map<?, ?> m ? (Map<String, Object>) m : new Fields();
    }
}
