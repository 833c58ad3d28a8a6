package dev.agentpay.discovery.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A real HTTP server standing in for the services discovery-service wraps, answering in their
 * documented shapes: mandate-service's public view, create, sign and dispute; invoice-service's x402
 * endpoints (402 with an x402 v1 PaymentRequired body, 200 for a payment that matches the
 * requirements). It also plays the gateway: other paths are forwarded to the application under test,
 * so a client that starts from the manifest's absolute URLs reaches everything through it.
 */
public final class UpstreamStub implements AutoCloseable {

    public static final String API_KEY = "sk_" + "ab".repeat(32);
    /** An access token the stub accepts with every scope, and one it answers 403 insufficient_scope (JWT-shaped). */
    public static final String BEARER = "eyJhbGciOiJFUzI1NiJ9.eyJzY29wZSI6ImRpc3B1dGVzOndyaXRlIn0.c2lnbmF0dXJl";
    public static final String NARROW_BEARER = "eyJhbGciOiJFUzI1NiJ9.eyJzY29wZSI6Im1hbmRhdGVzOnJlYWQifQ.c2lnbmF0dXJl";
    public static final String PAY_TO = "0x1111111111111111111111111111111111111111";
    public static final String USDC_BASE = "0x833589fCD6eDb6E08f4c3C32D4f71b54bdA02913";
    /** An OAuth client the stub's {@code POST /oauth/token} accepts (answering {@link #BEARER}), and one whose token lives 20 s. */
    public static final String CLIENT_ID = "cli_" + "c1".repeat(16);
    public static final String SHORT_CLIENT_ID = "cli_" + "c2".repeat(16);
    public static final String CLIENT_SECRET = "cs_" + "5e".repeat(32);

    /** One request the stub received. */
    public record Seen(String method, String path, Map<String, List<String>> headers, String body) {
    }

    private static final ObjectMapper M = new ObjectMapper();
    private static final java.time.format.DateTimeFormatter ISO_MILLIS =
            java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(java.time.ZoneOffset.UTC);

    private final HttpServer server;
    private final HttpClient forwardClient = HttpClient.newHttpClient();
    private final Map<String, ObjectNode> mandates = new ConcurrentHashMap<>();
    /** Dispute evidence by mandate id, in arrival order. */
    private final Map<String, List<ObjectNode>> evidence = new ConcurrentHashMap<>();
    public final List<Seen> seen = new CopyOnWriteArrayList<>();
    public volatile String forwardTo;
    public volatile boolean invoiceDown;

    public UpstreamStub() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** A mandate with a budget of 1.00 USDC (the stub's budget answer: 0.25 spent, 0.25 reserved, two charges). */
    public String mandateWithBudget(String state) {
        String id = mandate(state);
        mandates.get(id).putObject("budget").put("amount", "1.00").put("currency", "USDC").putNull("period").putNull("max_per_charge");
        return id;
    }

    /** Puts a mandate in a given state (for tests that need one without the sign flow). */
    public String mandate(String state) {
        String id = "mnd_" + UUID.randomUUID();
        ObjectNode m = newMandate(id, "agent-a", "agent-b", "a task", M.createObjectNode().put("amount", 5), "2030-01-01T00:00:00.000Z");
        m.put("state", state);
        mandates.put(id, m);
        return id;
    }

    public List<Seen> seen(String method, String pathPrefix) {
        return seen.stream().filter(s -> s.method().equals(method) && s.path().startsWith(pathPrefix)).toList();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            String method = ex.getRequestMethod();
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            seen.add(new Seen(method, path, Map.copyOf(ex.getRequestHeaders()), body));
            if (path.equals("/oauth/token") && method.equals("POST")) {
                oauthToken(ex, body);
            } else if (path.equals("/v1/invoices") && method.equals("GET")) {
                invoiceList(ex);
            } else if (path.startsWith("/v1/")) {
                mandateService(ex, method, path, body);
            } else if (path.startsWith("/api/x402/")) {
                if (invoiceDown) {
                    ex.sendResponseHeaders(503, -1);
                    return;
                }
                invoiceService(ex, path, body);
            } else {
                forward(ex, method, body);
            }
        } catch (Exception e) {
            e.printStackTrace();
        }
    }

    // ---- mandate-service ---------------------------------------------------------------------------

    private void mandateService(HttpExchange ex, String method, String path, String body) throws IOException {
        String[] p = path.split("/");
        if (method.equals("GET") && path.startsWith("/v1/public/mandates/")) {
            ObjectNode m = mandates.get(p[4]);
            if (m == null) {
                send(ex, 404, error("mandate_not_found", "no mandate " + p[4]));
                return;
            }
            ObjectNode v = M.createObjectNode();
            v.put("id", m.get("id").asText());
            v.put("state", m.get("state").asText());
            v.put("mandate_hash", "0x" + "12".repeat(32));
            v.put("anchor_tx_hash", m.get("state").asText().equals("proposed") ? null : "0x" + "34".repeat(32));
            v.put("created_at", Instant.now().toString());
            v.putArray("parties").add(m.get("proposer_agent_id")).add(m.get("counterparty_agent_id"));
            send(ex, 200, M.createObjectNode().put("success", true).set("data", v));
            return;
        }
        String authorization = ex.getRequestHeaders().getFirst("Authorization");
        if (authorization != null) {
            if (authorization.equals("Bearer " + NARROW_BEARER)) {
                send(ex, 403, error("insufficient_scope", "this operation needs scope disputes:write"));
                return;
            }
            if (!authorization.equals("Bearer " + BEARER)) {
                send(ex, 401, error("invalid_token", "token is invalid"));
                return;
            }
        } else if (!API_KEY.equals(ex.getRequestHeaders().getFirst("x-api-key"))) {
            send(ex, 401, error("unauthorized", "missing or invalid x-api-key"));
            return;
        }
        JsonNode in = body.isBlank() ? M.createObjectNode() : M.readTree(body);
        if (method.equals("POST") && path.equals("/v1/mandates")) {
            String id = "mnd_" + UUID.randomUUID();
            mandates.put(id, newMandate(id, in.path("proposer").asText(), in.path("counterparty").asText(), in.path("scope").asText(),
                    in.path("terms"), ISO_MILLIS.format(Instant.parse(in.path("expiry").asText()))));
            send(ex, 201, M.createObjectNode().put("success", true).set("data", M.createObjectNode()
                    .put("mandate_id", id).put("status", "proposed").put("proposer_signature_required", true)));
            return;
        }
        ObjectNode m = p.length > 3 ? mandates.get(p[3]) : null;
        if (m == null) {
            send(ex, 404, error("mandate_not_found", "no such mandate"));
            return;
        }
        if (method.equals("GET") && p.length == 4) {
            send(ex, 200, M.createObjectNode().put("success", true).set("data", m));
            return;
        }
        String op = p.length > 4 ? p[4] : "";
        String state = m.get("state").asText();
        if (op.equals("sign")) {
            String signer = in.path("signer").asText();
            if (!in.path("signature").asText().matches("[0-9a-f]{64}")) {
                send(ex, 403, error("invalid_signature", "HMAC does not match"));
                return;
            }
            if (signer.equals("proposer") && state.equals("proposed")) {
                m.put("state", "signed_by_proposer");
            } else if (signer.equals("counterparty") && state.equals("signed_by_proposer")) {
                m.put("state", "signed_by_both");
            } else {
                send(ex, 409, error("invalid_transition", "cannot sign as " + signer + " in " + state));
                return;
            }
            send(ex, 200, M.createObjectNode().put("success", true).set("data", M.createObjectNode()
                    .put("mandate_id", m.get("id").asText()).put("status", m.get("state").asText()).putNull("drs_receipt_id")));
            return;
        }
        if (op.equals("budget") && method.equals("GET")) {
            if (!m.path("budget").isObject()) {
                send(ex, 200, M.createObjectNode().put("success", true).set("data", M.createObjectNode()
                        .put("mandate_id", m.get("id").asText()).put("amount", "1").put("reserved", "0").put("spent", "0")
                        .put("remaining", "1").set("charges", M.createArrayNode())));
                return;
            }
            ObjectNode b = M.createObjectNode().put("mandate_id", m.get("id").asText()).put("amount", "1.00").put("currency", "USDC")
                    .putNull("period").putNull("max_per_charge").put("period_start", "2026-11-26T10:00:00.000Z").putNull("period_end")
                    .put("reserved", "0.25").put("spent", "0.25").put("remaining", "0.5");
            b.putArray("charges")
                    .add(M.createObjectNode().put("charge_id", "chg_open").put("mandate_id", m.get("id").asText())
                            .put("invoice_id", "00000000-0000-4000-8000-0000000000c2").put("amount", "0.25").put("status", "pending")
                            .put("created_at", "2026-11-26T10:02:00.000Z").putNull("settled_at").putNull("released_at"))
                    .add(M.createObjectNode().put("charge_id", "chg_<b>paid</b>").put("mandate_id", m.get("id").asText())
                            .put("invoice_id", "00000000-0000-4000-8000-0000000000c1").put("amount", "0.25").put("status", "settled")
                            .put("created_at", "2026-11-26T10:01:00.000Z").put("settled_at", "2026-11-26T10:01:30.000Z").putNull("released_at"));
            b.put("next_cursor", "older-charges");
            send(ex, 200, M.createObjectNode().put("success", true).set("data", b));
            return;
        }
        if (op.equals("charges") && method.equals("POST")) {
            if (!state.equals("signed_by_both") && !state.equals("in_progress")) {
                send(ex, 409, error("mandate_not_active", "mandate is " + state));
                return;
            }
            ObjectNode c = M.createObjectNode().put("charge_id", "chg_" + UUID.randomUUID()).put("mandate_id", m.get("id").asText())
                    .put("invoice_id", UUID.randomUUID().toString()).put("amount", in.path("amount").asText()).put("status", "pending");
            c.putObject("paymentDetails").put("chain", in.path("chain").asText()).put("paymentAddress", "0x" + "ab".repeat(20));
            send(ex, 201, M.createObjectNode().put("success", true).set("data", c));
            return;
        }
        if (op.equals("dispute") && (method.equals("GET") || p.length > 5)) {
            disputeCase(ex, method, p, m, in);
            return;
        }
        if (op.equals("dispute")) {
            if (!in.path("reason").isTextual()) {
                send(ex, 400, error("validation_error", "reason: is required"));
                return;
            }
            if (!state.equals("signed_by_both") && !state.equals("in_progress")) {
                send(ex, 409, error("invalid_transition", "cannot dispute a mandate in " + state));
                return;
            }
            m.put("state", "disputed");
            m.put("dispute_reason", in.path("reason").asText());
            m.put("_disputed_at", ISO_MILLIS.format(Instant.now()));
            send(ex, 200, M.createObjectNode().put("success", true).set("data", M.createObjectNode()
                    .put("mandate_id", m.get("id").asText()).put("status", "disputed")));
            return;
        }
        send(ex, 404, error("not_found", "no such resource"));
    }

    /** Mandates whose platform has no dispute cases (GET on the dispute path is 405, as before issue 30). */
    public final java.util.Set<String> withoutCases = ConcurrentHashMap.newKeySet();

    /** Resolves a stub mandate's dispute as the arbiter would ({@code POST /admin/v1/disputes/{id}/resolve}). */
    public void resolve(String id, String toCounterparty, String toProposer, String note) {
        ObjectNode m = mandates.get(id);
        m.put("state", "resolved");
        m.putObject("_resolution").put("outcome", "arbiter").put("to_counterparty", toCounterparty).put("to_proposer", toProposer)
                .put("note", note).put("resolved_at", ISO_MILLIS.format(Instant.now())).put("transition_id", UUID.randomUUID().toString());
    }

    /** mandate-service's dispute case (issue 30; mandate-service README, "Disputes", and OpenAPI getDispute). */
    private void disputeCase(HttpExchange ex, String method, String[] p, ObjectNode m, JsonNode in) throws IOException {
        String id = m.get("id").asText();
        if (withoutCases.contains(id)) {
            // as mandate-service before issue 30: the path has POST (open a dispute) only
            send(ex, 405, error("method_not_allowed", "GET is not allowed here"));
            return;
        }
        String state = m.get("state").asText();
        boolean disputed = state.equals("disputed") || state.equals("resolved");
        if (method.equals("GET") && p.length == 5) {
            if (!disputed) {
                send(ex, 404, error("no_dispute", "mandate " + id + " was never disputed"));
                return;
            }
            ObjectNode c = M.createObjectNode().put("mandate_id", id).put("state", state)
                    .put("status", state.equals("resolved") ? "resolved" : "open").put("reason", m.path("dispute_reason").asText())
                    .put("opened_by", "console").put("opened_at", m.path("_disputed_at").asText())
                    .put("deadline_at", "2026-12-10T16:59:00.000Z").put("deadline_outcome", "refund_funder").put("held", "0").putNull("escrow");
            var sides = c.putArray("sides");
            for (String party : List.of("proposer", "counterparty")) {
                ObjectNode side = sides.addObject().put("party", party)
                        .put("agent_id", m.path(party.equals("proposer") ? "proposer_agent_id" : "counterparty_agent_id").asText());
                var ev = side.putArray("evidence");
                for (JsonNode e : m.path("_evidence")) {
                    if (e.path("party").asText().equals(party)) {
                        ObjectNode copy = e.deepCopy();
                        copy.remove("_key");
                        ev.add(copy);
                    }
                }
            }
            c.set("resolution", m.has("_resolution") ? m.get("_resolution") : M.nullNode());
            send(ex, 200, M.createObjectNode().put("success", true).set("data", c));
            return;
        }
        if (method.equals("POST") && p.length == 6 && p[5].equals("evidence")) {
            if (!state.equals("disputed")) {
                send(ex, 409, error("dispute_not_open", "mandate " + id + " is " + state));
                return;
            }
            String party = in.path("party").asText();
            if (!party.equals("proposer") && !party.equals("counterparty")) {
                send(ex, 400, error("invalid_party", "party: not a role of this mandate"));
                return;
            }
            if (!in.path("text").isTextual() || in.path("text").asText().isEmpty()) {
                send(ex, 400, error("validation_error", "text: must not be empty"));
                return;
            }
            String key = ex.getRequestHeaders().getFirst("Idempotency-Key");
            for (JsonNode e : m.path("_evidence")) {
                if (key != null && key.equals(e.path("_key").asText())) {
                    ObjectNode replay = e.deepCopy();
                    replay.remove("_key");
                    send(ex, 201, M.createObjectNode().put("success", true).set("data", replay));
                    return;
                }
            }
            ObjectNode e = M.createObjectNode().put("evidence_id", "evd_" + UUID.randomUUID()).put("mandate_id", id).put("party", party)
                    .put("text", in.path("text").asText());
            e.set("links", in.path("links").isArray() ? in.path("links") : M.createArrayNode());
            e.put("sha256", "0x" + "ab".repeat(32)).put("transition_id", UUID.randomUUID().toString()).put("anchor_status", "pending")
                    .putNull("anchor_tx_hash").putNull("anchor_chain_id").putNull("anchor_block_number").putNull("anchor_log_index")
                    .put("submitted_by", in.path("triggered_by").asText("system")).put("submitted_at", ISO_MILLIS.format(Instant.now()));
            ObjectNode stored = e.deepCopy();
            if (key != null) {
                stored.put("_key", key);
            }
            (m.has("_evidence") ? (com.fasterxml.jackson.databind.node.ArrayNode) m.get("_evidence") : m.putArray("_evidence")).add(stored);
            send(ex, 201, M.createObjectNode().put("success", true).set("data", e));
            return;
        }
        send(ex, 404, error("not_found", "no such resource"));
    }

    /** mandate-service's {@code POST /oauth/token} (client credentials, {@code client_secret_post}). */
    private void oauthToken(HttpExchange ex, String body) throws IOException {
        Map<String, String> form = new java.util.HashMap<>();
        for (String pair : body.split("&")) {
            int eq = pair.indexOf('=');
            if (eq > 0) {
                form.put(java.net.URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
                        java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        String id = form.get("client_id");
        if (!"client_credentials".equals(form.get("grant_type")) || !CLIENT_SECRET.equals(form.get("client_secret"))
                || !(CLIENT_ID.equals(id) || SHORT_CLIENT_ID.equals(id))) {
            send(ex, 401, M.createObjectNode().put("success", false).put("error", "invalid_client")
                    .put("error_description", "client authentication failed"));
            return;
        }
        send(ex, 200, M.createObjectNode().put("access_token", BEARER).put("token_type", "Bearer")
                .put("expires_in", SHORT_CLIENT_ID.equals(id) ? 20 : 600).put("scope", "invoices:read mandates:read"));
    }

    /** invoice-service's {@code GET /v1/invoices}: an empty page to a valid key or token. */
    private void invoiceList(HttpExchange ex) throws IOException {
        String authorization = ex.getRequestHeaders().getFirst("Authorization");
        boolean ok = authorization != null ? authorization.equals("Bearer " + BEARER) : API_KEY.equals(ex.getRequestHeaders().getFirst("x-api-key"));
        if (!ok) {
            send(ex, 401, error("unauthorized", "missing or invalid credential"));
            return;
        }
        ObjectNode data = M.createObjectNode();
        data.putArray("items");
        data.putNull("nextCursor");
        send(ex, 200, M.createObjectNode().put("success", true).set("data", data));
    }

    private static ObjectNode newMandate(String id, String proposer, String counterparty, String scope, JsonNode terms, String expiresAt) {
        ObjectNode m = M.createObjectNode();
        m.put("id", id);
        m.put("proposer_agent_id", proposer);
        m.put("counterparty_agent_id", counterparty);
        m.put("scope", scope);
        m.set("terms", terms);
        m.put("expires_at", expiresAt);
        m.put("state", "proposed");
        return m;
    }

    // ---- invoice-service (x402) --------------------------------------------------------------------

    private void invoiceService(HttpExchange ex, String path, String body) throws IOException {
        boolean invoice = path.equals("/api/x402/invoice");
        String price = invoice ? "10000" : "5000";
        ObjectNode requirements = M.createObjectNode();
        requirements.put("scheme", "exact");
        requirements.put("network", "base");
        requirements.put("maxAmountRequired", price);
        requirements.put("resource", url() + path);
        requirements.put("description", invoice ? "Create an invoice" : "Check settlement");
        requirements.put("mimeType", "application/json");
        requirements.put("payTo", PAY_TO);
        requirements.put("maxTimeoutSeconds", 60);
        requirements.put("asset", USDC_BASE);
        requirements.putObject("extra").put("name", "USD Coin").put("version", "2");
        String payment = ex.getRequestHeaders().getFirst("X-PAYMENT");
        String problem = payment == null ? "X-PAYMENT header is required" : checkPayment(payment, price);
        if (problem != null) {
            ObjectNode pr = M.createObjectNode();
            pr.put("x402Version", 1);
            pr.put("error", problem);
            pr.putArray("accepts").add(requirements);
            send(ex, 402, pr);
            return;
        }
        JsonNode in = body.isBlank() ? M.createObjectNode() : M.readTree(body);
        String id = invoice ? UUID.randomUUID().toString() : in.path("invoice_id").asText();
        send(ex, 200, M.createObjectNode().put("success", true).put("capability", invoice ? "invoice" : "settle")
                .set("result", M.createObjectNode().put("id", id).put("status", "PENDING")));
    }

    private static String checkPayment(String header, String price) {
        try {
            JsonNode p = M.readTree(Base64.getDecoder().decode(header));
            JsonNode auth = p.path("payload").path("authorization");
            if (p.path("x402Version").asInt() != 1 || !p.path("scheme").asText().equals("exact")) {
                return "unsupported payment scheme";
            }
            if (!auth.path("value").asText().equals(price) || !auth.path("to").asText().equalsIgnoreCase(PAY_TO)) {
                return "payment does not match the requirements";
            }
            if (!p.path("payload").path("signature").asText().matches("0x[0-9a-fA-F]{130}")) {
                return "payment signature malformed";
            }
            return null;
        } catch (Exception e) {
            return "X-PAYMENT is not base64 JSON";
        }
    }

    // ---- gateway -----------------------------------------------------------------------------------

    private void forward(HttpExchange ex, String method, String body) throws Exception {
        if (forwardTo == null) {
            ex.sendResponseHeaders(502, -1);
            return;
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(forwardTo + ex.getRequestURI()))
                .method(method, body.isEmpty() ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        for (String h : List.of("content-type", "accept", "x-admin-key", "if-none-match", "origin")) {
            String v = ex.getRequestHeaders().getFirst(h);
            if (v != null) {
                b.header(h, v);
            }
        }
        HttpResponse<InputStream> r = forwardClient.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
        r.headers().map().forEach((k, v) -> {
            if (!k.equalsIgnoreCase("content-length") && !k.equalsIgnoreCase("transfer-encoding") && !k.startsWith(":")) {
                ex.getResponseHeaders().put(k, v);
            }
        });
        byte[] out = r.body().readAllBytes();
        ex.sendResponseHeaders(r.statusCode(), out.length == 0 ? -1 : out.length);
        if (out.length > 0) {
            ex.getResponseBody().write(out);
        }
    }

    private static ObjectNode error(String code, String message) {
        ObjectNode e = M.createObjectNode().put("success", false);
        e.putObject("error").put("code", code).put("message", message);
        return e;
    }

    private static void send(HttpExchange ex, int status, JsonNode body) throws IOException {
        byte[] b = M.writeValueAsBytes(body);
        ex.getResponseHeaders().set("content-type", "application/json");
        ex.sendResponseHeaders(status, b.length);
        ex.getResponseBody().write(b);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
