package dev.agentpay.bench.atrr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The ATRR harness: starting only from {@code BASE_URL/.well-known/disco.json}, it finds the MCP
 * endpoint, the sections and the tools, then runs 18 standard agent tasks (six classes, one per MCP
 * tool, three each) using only what those documents describe; it counts the tasks finished end to
 * end, writes every HTTP exchange to a raw log (credentials redacted) and publishes the result
 * through {@code POST /disco/benchmark/publish}.
 *
 * <p>Settings come from the environment or, for keys not set there, from {@code .local/stack.env}:
 * {@code BASE_URL}, {@code API_KEY}, {@code SIGNING_SECRET}, {@code DEV_PAYER_PRIVATE_KEY},
 * {@code ADMIN_API_KEY} (publish only when set), {@code ATRR_OUT} (raw-log folder, default
 * {@code bench/results}), {@code ATRR_PUBLISH} ({@code false} to skip publishing).
 */
public final class AtrrHarness {

    public static final int PER_CLASS = 3;
    public static final List<String> CLASSES = List.of(
            "service_get_pricing", "service_get_trust_signals", "service_query_mandate",
            "service_dispute_open", "service_create_invoice", "service_settle_invoice");

    /** The outcome of one task. */
    public record TaskResult(String taskClass, int n, boolean completed, String detail) {
    }

    /** The outcome of a run. */
    public record Result(double score, int completed, int total, List<TaskResult> tasks, Path rawLog, JsonNode published) {
    }

    private final ObjectMapper mapper = new ObjectMapper();
    private final Map<String, String> settings;
    private final RecordingHttp http = new RecordingHttp(mapper);
    private JsonNode manifest;
    private String mcpEndpoint;
    private final Map<String, JsonNode> sections = new LinkedHashMap<>();
    private final Map<String, JsonNode> tools = new LinkedHashMap<>();
    private final List<String> invoiceIds = new ArrayList<>();
    private int rpcId;

    public AtrrHarness(Map<String, String> settings) {
        this.settings = settings;
    }

    public static void main(String[] args) throws Exception {
        Result r = new AtrrHarness(settingsFromEnvironment()).run();
        System.out.printf("ATRR %.2f (%d/%d); raw log %s%n", r.score(), r.completed(), r.total(), r.rawLog());
        r.tasks().forEach(t -> System.out.printf("  %-26s #%d %s %s%n", t.taskClass(), t.n(), t.completed() ? "ok  " : "FAIL", t.detail()));
        if (r.published() != null) {
            System.out.println("published: " + r.published());
        }
        System.exit(r.score() >= 0.80 ? 0 : 1);
    }

    /** Environment variables, falling back to {@code .local/stack.env} (searched upwards from the working directory). */
    public static Map<String, String> settingsFromEnvironment() throws IOException {
        Map<String, String> s = new HashMap<>();
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            Path env = dir.resolve(".local/stack.env");
            if (Files.exists(env)) {
                for (String line : Files.readAllLines(env)) {
                    int eq = line.indexOf('=');
                    if (eq > 0 && !line.startsWith("#")) {
                        s.put(line.substring(0, eq).trim(), line.substring(eq + 1).trim());
                    }
                }
                break;
            }
            dir = dir.getParent();
        }
        s.putAll(System.getenv());
        return s;
    }

    public Result run() throws Exception {
        String base = require("BASE_URL").replaceAll("/+$", "");
        discover(base);
        List<TaskResult> results = new ArrayList<>();
        for (String c : CLASSES) {
            for (int n = 1; n <= PER_CLASS; n++) {
                http.task(c + "#" + n);
                TaskResult r;
                try {
                    r = task(c, n);
                } catch (Exception e) {
                    r = new TaskResult(c, n, false, "exception: " + e);
                }
                results.add(r);
            }
        }
        int completed = (int) results.stream().filter(TaskResult::completed).count();
        double score = (double) completed / results.size();
        Path out = Path.of(settings.getOrDefault("ATRR_OUT", "bench/results"));
        Files.createDirectories(out);
        String runAt = Instant.now().toString();
        Path rawLog = out.resolve("atrr-" + runAt.replace(":", "-") + ".jsonl");
        StringBuilder jsonl = new StringBuilder();
        http.log().forEach(e -> jsonl.append(e.toString()).append('\n'));
        Files.writeString(rawLog, jsonl);
        JsonNode published = null;
        if (settings.get("ADMIN_API_KEY") != null && !"false".equals(settings.get("ATRR_PUBLISH"))) {
            published = publish(base, results, completed, score, runAt);
        }
        return new Result(score, completed, results.size(), results, rawLog, published);
    }

    // ---- discovery --------------------------------------------------------------------------------

    private void discover(String base) {
        http.task("discovery");
        RecordingHttp.Answer m = http.get(base + "/.well-known/disco.json", Map.of("accept", "application/json"));
        if (m.status() != 200 || m.json() == null) {
            throw new IllegalStateException("manifest not available: HTTP " + m.status());
        }
        manifest = m.json();
        mcpEndpoint = manifest.at("/mcp/endpoint").asText();
        for (JsonNode s : manifest.get("sections")) {
            RecordingHttp.Answer a = http.get(s.get("url").asText(), Map.of("accept", "application/json"));
            if (a.status() == 200) {
                sections.put(s.get("name").asText(), a.json());
            }
        }
        JsonNode list = rpc("tools/list", mapper.createObjectNode());
        for (JsonNode t : list.path("result").path("tools")) {
            tools.put(t.get("name").asText(), t);
        }
    }

    private JsonNode rpc(String method, ObjectNode params) {
        ObjectNode req = mapper.createObjectNode().put("jsonrpc", "2.0").put("id", ++rpcId).put("method", method);
        req.set("params", params);
        RecordingHttp.Answer a = http.post(mcpEndpoint, Map.of("accept", "application/json, text/event-stream"), req);
        if (a.json() == null) {
            return mapper.createObjectNode().set("error", mapper.createObjectNode().put("message", "HTTP " + a.status()));
        }
        return a.json();
    }

    /** A {@code tools/call}; returns the CallToolResult (or a synthetic error result). */
    private JsonNode call(String tool, ObjectNode args) {
        if (!tools.containsKey(tool)) {
            throw new IllegalStateException(tool + " is not listed by tools/list");
        }
        ObjectNode p = mapper.createObjectNode().put("name", tool);
        p.set("arguments", args);
        JsonNode r = rpc("tools/call", p);
        if (r.has("result")) {
            return r.get("result");
        }
        return mapper.createObjectNode().put("isError", true).set("structuredContent", r.path("error"));
    }

    private JsonNode sectionRest(String section, String method, String path) {
        for (JsonNode r : sections.getOrDefault(section, mapper.createObjectNode()).path("rest")) {
            if (r.path("method").asText().equals(method) && r.path("path").asText().equals(path)) {
                return r;
            }
        }
        throw new IllegalStateException("section " + section + " does not describe " + method + " " + path);
    }

    // ---- tasks ------------------------------------------------------------------------------------

    private TaskResult task(String c, int n) throws Exception {
        return switch (c) {
            case "service_get_pricing" -> pricing(n);
            case "service_get_trust_signals" -> trustSignals(n);
            case "service_query_mandate" -> queryMandate(n);
            case "service_dispute_open" -> dispute(n);
            case "service_create_invoice" -> createInvoice(n);
            case "service_settle_invoice" -> settleInvoice(n);
            default -> throw new IllegalArgumentException(c);
        };
    }

    private TaskResult pricing(int n) {
        JsonNode r = call("service_get_pricing", mapper.createObjectNode());
        JsonNode s = r.path("structuredContent");
        boolean ok = !r.path("isError").asBoolean(true) && s.path("tools").size() == tools.size()
                && s.path("model").isTextual() && s.path("tiers").isArray();
        return new TaskResult("service_get_pricing", n, ok, ok ? s.path("tools").size() + " prices" : "unexpected result " + r);
    }

    private TaskResult trustSignals(int n) {
        JsonNode r = call("service_get_trust_signals", mapper.createObjectNode());
        JsonNode m = r.path("structuredContent").path("metrics");
        boolean ok = !r.path("isError").asBoolean(true) && m.path("drs_receipts_issued").isNumber()
                && m.path("mandates_anchored").isNumber() && m.path("invoices_settled").isNumber();
        return new TaskResult("service_get_trust_signals", n, ok, ok ? m.toString() : "unexpected result " + r);
    }

    /** Creates a mandate through the REST call the query_mandate section describes; returns its id. */
    private String createMandate(String label) {
        JsonNode create = sectionRest("query_mandate", "POST", "/v1/mandates");
        String base = manifest.get("base_url").asText();
        ObjectNode body = mapper.createObjectNode();
        body.put("proposer", "atrr-proposer-" + label);
        body.put("counterparty", "atrr-counterparty-" + label);
        body.put("scope", "ATRR benchmark task " + label);
        body.putObject("terms").put("amount", 1).put("currency", "USDC").put("deliverable", "benchmark report");
        body.put("expiry", Instant.now().plusSeconds(3600).toString());
        body.putObject("context").put("source", "atrr");
        RecordingHttp.Answer a = http.post(base + create.get("path").asText(), Map.of("x-api-key", require("API_KEY")), body);
        if (a.status() / 100 != 2 || a.json() == null) {
            throw new IllegalStateException("create mandate: HTTP " + a.status() + " " + a.text());
        }
        return a.json().at("/data/mandate_id").asText();
    }

    private TaskResult queryMandate(int n) {
        String id = createMandate("q" + n + "-" + UUID.randomUUID());
        JsonNode r = call("service_query_mandate", mapper.createObjectNode().put("mandate_id", id));
        JsonNode s = r.path("structuredContent");
        boolean ok = !r.path("isError").asBoolean(true) && id.equals(s.path("id").asText()) && s.path("state").isTextual();
        return new TaskResult("service_query_mandate", n, ok, ok ? "state " + s.get("state").asText() : "unexpected result " + r);
    }

    private TaskResult dispute(int n) throws Exception {
        String id = createMandate("d" + n + "-" + UUID.randomUUID());
        String base = manifest.get("base_url").asText();
        Map<String, String> key = Map.of("x-api-key", require("API_KEY"));
        RecordingHttp.Answer got = http.get(base + sectionRest("query_mandate", "GET", "/v1/mandates/{id}").get("path").asText()
                .replace("{id}", id), key);
        if (got.status() != 200) {
            return new TaskResult("service_dispute_open", n, false, "read mandate: HTTP " + got.status());
        }
        String signature = CanonicalSigning.signature(mapper, got.json().get("data"), require("SIGNING_SECRET"));
        String signPath = base + sectionRest("query_mandate", "POST", "/v1/mandates/{id}/sign").get("path").asText().replace("{id}", id);
        for (String signer : List.of("proposer", "counterparty")) {
            RecordingHttp.Answer s = http.post(signPath, key, mapper.createObjectNode().put("signer", signer).put("signature", signature));
            if (s.status() / 100 != 2) {
                return new TaskResult("service_dispute_open", n, false, "sign as " + signer + ": HTTP " + s.status() + " " + s.text());
            }
        }
        JsonNode r = call("service_dispute_open", mapper.createObjectNode().put("mandate_id", id)
                .put("reason", "ATRR task " + n + ": the deliverable was not provided").put("api_key", require("API_KEY")));
        if (r.path("isError").asBoolean(true)) {
            return new TaskResult("service_dispute_open", n, false, "dispute refused: " + r.path("content"));
        }
        JsonNode q = call("service_query_mandate", mapper.createObjectNode().put("mandate_id", id));
        boolean ok = "disputed".equals(q.at("/structuredContent/state").asText());
        return new TaskResult("service_dispute_open", n, ok, ok ? "disputed" : "state after dispute: " + q.at("/structuredContent/state"));
    }

    /** Calls a paid tool: first without payment (expecting PaymentRequired), then paying one requirement. */
    private JsonNode paidCall(String tool, ObjectNode args, List<String> trail) throws Exception {
        JsonNode first = call(tool, args.deepCopy());
        JsonNode required = first.path("structuredContent");
        if (!first.path("isError").asBoolean(false) || !required.has("accepts")) {
            trail.add("expected PaymentRequired, got " + first);
            return null;
        }
        JsonNode req = Payments.payable(required);
        if (req == null) {
            trail.add("no payable requirement in " + required.path("accepts"));
            return null;
        }
        String key = settings.get("DEV_PAYER_PRIVATE_KEY");
        if (key == null) {
            trail.add("DEV_PAYER_PRIVATE_KEY not set");
            return null;
        }
        ObjectNode paid = args.deepCopy();
        paid.put("x_payment", Payments.pay(mapper, req, key));
        JsonNode second = call(tool, paid);
        if (second.path("isError").asBoolean(true)) {
            trail.add("paid call refused: " + second.path("content"));
            return null;
        }
        return second.path("structuredContent");
    }

    private TaskResult createInvoice(int n) throws Exception {
        List<String> trail = new ArrayList<>();
        ObjectNode args = mapper.createObjectNode().put("issuer", "atrr-seller").put("recipient", "atrr-buyer-" + n)
                .put("email", "atrr-buyer-" + n + "@example.com").put("amount", 0.01).put("currency", "USDC")
                .put("description", "ATRR task " + n);
        JsonNode s = paidCall("service_create_invoice", args, trail);
        boolean ok = s != null && s.at("/result/id").isTextual() && "PENDING".equals(s.at("/result/status").asText());
        if (ok) {
            invoiceIds.add(s.at("/result/id").asText());
        }
        return new TaskResult("service_create_invoice", n, ok, ok ? "invoice " + s.at("/result/id").asText() : String.join("; ", trail));
    }

    private TaskResult settleInvoice(int n) throws Exception {
        List<String> trail = new ArrayList<>();
        String id = invoiceIds.size() >= n ? invoiceIds.get(n - 1) : null;
        if (id == null) {
            JsonNode created = paidCall("service_create_invoice", mapper.createObjectNode().put("issuer", "atrr-seller")
                    .put("description", "ATRR settle task " + n), trail);
            id = created == null ? null : created.at("/result/id").asText(null);
        }
        if (id == null) {
            return new TaskResult("service_settle_invoice", n, false, "no invoice to check: " + String.join("; ", trail));
        }
        JsonNode s = paidCall("service_settle_invoice", mapper.createObjectNode().put("invoice_id", id), trail);
        boolean ok = s != null && s.path("success").asBoolean(false);
        return new TaskResult("service_settle_invoice", n, ok, ok ? "checked " + id + ": " + s.path("result") : String.join("; ", trail));
    }

    // ---- publish ----------------------------------------------------------------------------------

    private JsonNode publish(String base, List<TaskResult> results, int completed, double score, String runAt) {
        ObjectNode doc = mapper.createObjectNode();
        doc.put("metric", "ATRR");
        doc.put("tasks_total", results.size());
        doc.put("tasks_completed", completed);
        doc.put("score", score);
        doc.put("run_at", runAt);
        doc.put("harness", "dev.agentpay.bench.atrr.AtrrHarness");
        doc.put("base_url", base);
        doc.put("entry_point", base + "/.well-known/disco.json");
        ArrayNode classes = doc.putArray("task_classes");
        for (String c : CLASSES) {
            List<TaskResult> of = results.stream().filter(t -> t.taskClass().equals(c)).toList();
            classes.addObject().put("name", c).put("attempted", of.size())
                    .put("completed", (int) of.stream().filter(TaskResult::completed).count());
        }
        ArrayNode tasks = doc.putArray("tasks");
        results.forEach(t -> tasks.addObject().put("class", t.taskClass()).put("n", t.n()).put("completed", t.completed())
                .put("detail", t.detail()));
        ArrayNode logs = doc.putArray("raw_logs");
        http.log().forEach(logs::add);
        http.task("publish");
        RecordingHttp.Answer a = http.post(base + "/disco/benchmark/publish", Map.of("x-admin-key", settings.get("ADMIN_API_KEY")), doc);
        if (a.status() != 201) {
            throw new IllegalStateException("publish refused: HTTP " + a.status() + " " + a.text());
        }
        return a.json();
    }

    private String require(String key) {
        String v = settings.get(key);
        if (v == null || v.isBlank()) {
            throw new IllegalStateException(key + " is not set (environment or .local/stack.env)");
        }
        return v;
    }
}
