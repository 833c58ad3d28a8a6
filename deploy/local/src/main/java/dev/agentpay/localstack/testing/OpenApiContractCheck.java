package dev.agentpay.localstack.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * An OpenAPI document against real answers (issue 33 item 6): given one answer (method, path, status, body),
 * says what the document does not cover. The document is the service's own ({@code /q/openapi}); no list of
 * operations is kept here, so every operation a service adds is checked as soon as a test calls it.
 *
 * <ul>
 * <li>an answer of a documented operation with a status the operation does not document fails;</li>
 * <li>a JSON body is validated (JSON Schema 2020-12, networknt) against the schema documented for that
 * status, with every object <em>closed</em>: a field the schema does not name fails, as a missing required
 * field or a wrong type does; a JSON body where the document gives no schema fails too;</li>
 * <li>{@link #conventions()}: every operation has a client-style {@code operationId} (camelCase, a verb then
 * a noun: {@code createMandate}, not {@code MandateResource_create}), unique in the document, and a summary
 * of its own (not the method's name).</li>
 * </ul>
 */
public final class OpenApiContractCheck {

    private static final ObjectMapper M = new ObjectMapper();
    /** camelCase, starting with a lower-case verb, at least two words: {@code getManifest}, {@code createMandate}. */
    static final Pattern OPERATION_ID = Pattern.compile("[a-z]+[A-Z][A-Za-z0-9]*");
    private static final Pattern JAVA_ONLY = Pattern.compile("\\(\\?[a-zA-Z]|\\\\[AZz]");
    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "patch", "head");

    private final JsonNode doc;
    private final ObjectNode closed;
    private final List<Template> templates = new ArrayList<>();
    private final List<String> conventions;
    private final Map<String, Schema> schemas = new ConcurrentHashMap<>();
    private final SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

    /** One documented path, as a regular expression over request paths. */
    record Template(String path, Pattern regex, int parameters) {
    }

    public OpenApiContractCheck(JsonNode doc) {
        this.doc = doc;
        this.closed = closedComponents(doc);
        for (Iterator<String> it = doc.path("paths").fieldNames(); it.hasNext(); ) {
            String path = it.next();
            templates.add(new Template(path, regex(path), (int) path.chars().filter(c -> c == '{').count()));
        }
        templates.sort(Comparator.comparingInt(Template::parameters));
        conventions = List.copyOf(namingFindings());
    }

    public static OpenApiContractCheck of(String json) {
        try {
            return new OpenApiContractCheck(M.readTree(json));
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("not an OpenAPI document: " + e.getMessage(), e);
        }
    }

    /** The documented path a request path falls under (the most literal one), if any. */
    public Optional<String> template(String method, String path) {
        for (Template t : templates) {
            if (t.regex().matcher(path).matches() && doc.path("paths").path(t.path()).has(method.toLowerCase())) {
                return Optional.of(t.path());
            }
        }
        return Optional.empty();
    }

    /**
     * What the document lacks for this answer: empty when the operation is documented with this status and
     * the body fits its schema, or when the request is not a documented operation (nothing to compare).
     *
     * @param contentType the answer's {@code Content-Type} (null when none)
     */
    public List<String> check(String method, String path, int status, String contentType, String body) {
        Optional<String> template = template(method, path);
        if (template.isEmpty()) {
            return List.of();
        }
        String m = method.toLowerCase();
        String where = method.toUpperCase() + " " + template.get() + " answered " + status;
        JsonNode responses = doc.path("paths").path(template.get()).path(m).path("responses");
        String documented = responses.has(String.valueOf(status)) ? String.valueOf(status) : responses.has("default") ? "default" : null;
        if (documented == null) {
            List<String> statuses = new ArrayList<>();
            responses.fieldNames().forEachRemaining(statuses::add);
            return List.of(where + ", a status the document does not list for it (documented: " + statuses + ")"
                    + (body == null || body.isBlank() ? "" : ": " + abbreviate(body)));
        }
        if (body == null || body.isBlank() || contentType == null || !isJson(contentType)) {
            return List.of();
        }
        JsonNode instance;
        try {
            instance = M.readTree(body);
        } catch (java.io.IOException e) {
            return List.of(where + " with a body that is not JSON although its Content-Type says so: " + abbreviate(body));
        }
        JsonNode content = responses.path(documented).path("content");
        String media = jsonMediaType(content, contentType);
        if (media == null || !content.path(media).has("schema")) {
            return List.of(where + " with a JSON body, but the document gives no JSON schema for that answer: " + abbreviate(body));
        }
        String key = m + " " + template.get() + " " + documented + " " + media;
        Schema schema = schemas.computeIfAbsent(key, k -> compile(content.path(media).path("schema")));
        List<String> errors = new ArrayList<>();
        schema.validate(instance).forEach(e -> errors.add(e.toString()));
        if (errors.isEmpty()) {
            return List.of();
        }
        return List.of(where + " with a body the documented schema does not describe: " + String.join("; ", errors)
                + "\n  body: " + abbreviate(body));
    }

    /** Every operation's operationId and summary, as a client generated from the document would name them. */
    public List<String> conventions() {
        return conventions;
    }

    private List<String> namingFindings() {
        List<String> out = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = doc.path("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> p = paths.next();
            for (String m : METHODS) {
                JsonNode op = p.getValue().get(m);
                if (op == null) {
                    continue;
                }
                String where = m.toUpperCase() + " " + p.getKey();
                String id = op.path("operationId").asText("");
                if (!OPERATION_ID.matcher(id).matches()) {
                    out.add(where + ": operationId \"" + id + "\" is not client-style camelCase verb+noun (createMandate):"
                            + " give the method @Operation(operationId = ..., summary = ...)");
                } else if (!ids.add(id)) {
                    out.add(where + ": operationId \"" + id + "\" is used by another operation");
                }
                String summary = op.path("summary").asText("");
                if (summary.isBlank() || summary.split("\\s+").length < 2) {
                    out.add(where + ": summary \"" + summary + "\" does not say what the operation does in its own words");
                }
            }
        }
        javaOnlyPatterns(doc, "#", out);
        return out;
    }

    /** JSON Schema patterns are ECMA-262: Java's inline flag groups ({@code (?i)}) and {@code \\A}/{@code \\Z} are not. */
    private static void javaOnlyPatterns(JsonNode node, String at, List<String> out) {
        if (node.isObject()) {
            JsonNode p = node.get("pattern");
            if (p != null && p.isTextual() && JAVA_ONLY.matcher(p.asText()).find()) {
                out.add(at + ": pattern " + p + " is Java syntax, not ECMA-262 (JSON Schema): write it without inline flags");
            }
            node.fields().forEachRemaining(e -> javaOnlyPatterns(e.getValue(), at + "/" + e.getKey(), out));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                javaOnlyPatterns(node.get(i), at + "/" + i, out);
            }
        }
    }

    private Schema compile(JsonNode responseSchema) {
        ObjectNode root = M.createObjectNode();
        root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        ArrayNode all = root.putArray("allOf");
        all.add(close(responseSchema.deepCopy(), Set.of()));
        root.set("components", closed.get("components"));
        return registry.getSchema(root);
    }

    /** The document's components with every object schema closed (a field it does not name is an error). */
    private static ObjectNode closedComponents(JsonNode doc) {
        ObjectNode out = M.createObjectNode();
        ObjectNode components = out.putObject("components");
        JsonNode schemas = doc.path("components").path("schemas");
        Set<String> composed = new HashSet<>();
        collectComposed(doc, false, composed);
        ObjectNode closedSchemas = components.putObject("schemas");
        schemas.fields().forEachRemaining(e -> closedSchemas.set(e.getKey(),
                composed.contains(e.getKey()) ? e.getValue().deepCopy() : close(e.getValue().deepCopy(), composed)));
        return out;
    }

    /** Components reached from an {@code allOf}: closing them would refuse the other members' fields. */
    private static void collectComposed(JsonNode node, boolean inAllOf, Set<String> out) {
        if (node.isObject()) {
            JsonNode ref = node.get("$ref");
            if (inAllOf && ref != null && ref.isTextual() && ref.asText().startsWith("#/components/schemas/")) {
                out.add(ref.asText().substring("#/components/schemas/".length()));
            }
            node.fields().forEachRemaining(e -> collectComposed(e.getValue(), inAllOf || e.getKey().equals("allOf"), out));
        } else if (node.isArray()) {
            node.forEach(n -> collectComposed(n, inAllOf, out));
        }
    }

    /** Adds {@code additionalProperties: false} to every object schema with properties that does not say otherwise. */
    static JsonNode close(JsonNode node, Set<String> composed) {
        if (node.isObject()) {
            ObjectNode o = (ObjectNode) node;
            if (o.path("properties").isObject() && !o.has("additionalProperties") && !o.has("unevaluatedProperties")
                    && !o.has("allOf") && !o.has("anyOf") && !o.has("oneOf")) {
                o.put("additionalProperties", false);
            }
            o.fields().forEachRemaining(e -> {
                if (!e.getKey().equals("allOf")) {
                    close(e.getValue(), composed);
                }
            });
        } else if (node.isArray()) {
            node.forEach(n -> close(n, composed));
        }
        return node;
    }

    private static Pattern regex(String template) {
        StringBuilder b = new StringBuilder();
        int i = 0;
        while (i < template.length()) {
            int open = template.indexOf('{', i);
            if (open < 0) {
                b.append(Pattern.quote(template.substring(i)));
                break;
            }
            if (open > i) {
                b.append(Pattern.quote(template.substring(i, open)));
            }
            int close = template.indexOf('}', open);
            b.append("[^/]+");
            i = close + 1;
        }
        return Pattern.compile(b.toString());
    }

    /** The documented JSON media type of the answer's own type, else the first JSON one documented. */
    private static String jsonMediaType(JsonNode content, String answered) {
        String essence = answered.toLowerCase();
        essence = (essence.indexOf(';') < 0 ? essence : essence.substring(0, essence.indexOf(';'))).trim();
        if (content.has(essence)) {
            return essence;
        }
        for (Iterator<String> it = content.fieldNames(); it.hasNext(); ) {
            String media = it.next();
            if (isJson(media)) {
                return media;
            }
        }
        return null;
    }

    static boolean isJson(String contentType) {
        String t = contentType.toLowerCase();
        int semi = t.indexOf(';');
        t = (semi < 0 ? t : t.substring(0, semi)).trim();
        return t.equals("application/json") || t.endsWith("+json");
    }

    private static String abbreviate(String s) {
        return s.length() <= 600 ? s : s.substring(0, 600) + "...";
    }
}
