package dev.agentpay.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.commons.auth.ApiKeys;
import io.restassured.response.Response;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * Property-based fuzzing of every JSON endpoint through the gateway, with random and hostile bodies
 * and headers from jqwik generators: never a 5xx, never a hang (10 s client timeout), and a refused
 * request (any 4xx, including 429) changes nothing, checked in the owning service's database.
 *
 * <p>The generators are sampled inside this JUnit Jupiter test (jqwik's sampling API) so the fuzz
 * shares the one stack of the test JVM; every failure message carries the full request to replay it.
 */
@Order(3)
class FuzzIT {

    static final int PER_TARGET = Integer.getInteger("fuzz.perTarget", 60);
    static final ObjectMapper JSON = new ObjectMapper();

    static Map<String, String> env;
    static String base;
    static StackDb db;
    static String partnerId;
    static String apiKey;
    static String proposedMandate;
    static String signedMandate;
    static String budgetMandate;
    static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** One endpoint under fuzz: where it is, a valid body to mutate, and what it may change. */
    record Target(String method, String path, Supplier<Map<String, Object>> valid, Probe probe) {
    }

    @FunctionalInterface
    interface Probe {
        String read() throws Exception;
    }

    @BeforeAll
    static void setUp() throws Exception {
        env = SharedStack.env();
        base = env.get("BASE_URL");
        db = new StackDb(env);
        Response issued = given().baseUri(env.get("MANDATE_SERVICE_URL")).header("x-admin-key", env.get("ADMIN_API_KEY"))
                .contentType("application/json").body(Map.of("name", "fuzz-it")).post("/admin/partners");
        assertThat(issued.statusCode()).as(issued.asString()).isEqualTo(201);
        partnerId = issued.path("data.id");
        apiKey = issued.path("data.api_key");
        String secret = issued.path("data.signing_secret");
        MandateFlows flows = new MandateFlows(base, apiKey, secret);
        // The key reaches the gateway's services over Kafka.
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).until(() -> given().baseUri(base).header("x-api-key", apiKey)
                .get("/v1/invoices").statusCode() != 401 ? true : null, Objects::nonNull);
        proposedMandate = flows.create();
        signedMandate = flows.create();
        String sig = flows.signature(flows.get(signedMandate));
        flows.sign(signedMandate, "proposer", sig);
        flows.sign(signedMandate, "counterparty", sig);
        // a signed mandate with a budget, for the charges target (issue 28)
        Map<String, Object> budgeted = new java.util.LinkedHashMap<>(validMandate());
        budgeted.put("budget", map("amount", "1.00", "currency", "USDC"));
        Response created = given().baseUri(base).header("x-api-key", apiKey).contentType("application/json").body(budgeted)
                .post("/v1/mandates");
        assertThat(created.statusCode()).as(created.asString()).isEqualTo(201);
        budgetMandate = created.path("data.mandate_id");
        String budgetSig = flows.signature(flows.get(budgetMandate), FaultLoad.BUDGET_JSON);
        flows.sign(budgetMandate, "proposer", budgetSig);
        flows.sign(budgetMandate, "counterparty", budgetSig);
    }

    @Test
    void noJsonEndpointAnswers5xxHangsOrChangesStateWhenItRefuses() throws Exception {
        List<Target> targets = List.of(
                new Target("POST", "/v1/mandates", FuzzIT::validMandate, () -> partnerRows("mandate")),
                new Target("POST", "/v1/mandates/" + proposedMandate + "/sign",
                        () -> map("signer", "proposer", "signature", ApiKeys.randomHex(32)), () -> mandateState(proposedMandate)),
                new Target("POST", "/v1/mandates/" + signedMandate + "/complete",
                        () -> map("triggered_by", "fuzz"), () -> mandateState(signedMandate)),
                new Target("POST", "/v1/mandates/" + signedMandate + "/dispute",
                        () -> map("reason", "fuzzed dispute reason", "triggered_by", "fuzz"), () -> mandateState(signedMandate)),
                new Target("POST", "/v1/invoices", FuzzIT::validInvoice, () -> partnerRows("invoice")),
                new Target("POST", "/v1/mandates", FuzzIT::validBudgetMandate, () -> partnerRows("mandate")),
                new Target("POST", "/v1/mandates/" + budgetMandate + "/charges",
                        () -> map("amount", "0.10", "chain", "base", "description", "fuzz charge"), FuzzIT::budgetState),
                new Target("POST", "/v1/webhooks", () -> map("url", "https://hooks.example.com/fuzz",
                        "events", List.of("mandate.proposed"), "secret", "whsec_" + ApiKeys.randomHex(16)), () -> partnerRows("webhook")),
                new Target("POST", "/api/x402/invoice", () -> map("issuer", "fuzz", "recipient", "buyer",
                        "email", "buyer@example.com", "amount", 0.01, "currency", "USDC", "description", "fuzz"), () -> allRows("invoice")),
                new Target("POST", "/disco/mcp", FuzzIT::validMcpCall, () -> allRows("invoice")));

        Arbitrary<Map<String, String>> headers = headers();
        List<String> failures = new ArrayList<>();
        Map<String, Integer> statuses = new TreeMap<>();
        int sent = 0;
        long started = System.nanoTime();
        for (Target t : targets) {
            Arbitrary<byte[]> bodies = bodies(t);
            for (int i = 0; i < PER_TARGET; i++) {
                byte[] body = bodies.sample();
                Map<String, String> hs = headers.sample();
                String before = t.probe().read();
                int status;
                String answer;
                try {
                    HttpRequest.Builder rb = HttpRequest.newBuilder(URI.create(base + t.path())).timeout(Duration.ofSeconds(10))
                            .method(t.method(), HttpRequest.BodyPublishers.ofByteArray(body));
                    hs.forEach(rb::header);
                    HttpResponse<String> res = http.send(rb.build(), HttpResponse.BodyHandlers.ofString());
                    status = res.statusCode();
                    answer = res.body();
                } catch (HttpTimeoutException e) {
                    failures.add("HANG " + describe(t, hs, body));
                    continue;
                }
                sent++;
                statuses.merge(t.path().replaceAll("mnd_[0-9a-f-]+", "{id}") + " " + status, 1, Integer::sum);
                if (status >= 500) {
                    failures.add(status + " " + describe(t, hs, body) + " -> " + abbreviate(answer));
                } else if (status >= 400) {
                    String after = t.probe().read();
                    if (!before.equals(after)) {
                        failures.add("refused with " + status + " but changed state " + before + " -> " + after + ": "
                                + describe(t, hs, body));
                    }
                    if (!answer.isEmpty() && !answer.contains("\"success\":false") && !t.path().equals("/disco/mcp")
                            && status != 402) {
                        failures.add(status + " without the error envelope: " + abbreviate(answer) + " for " + describe(t, hs, body));
                    }
                }
                Thread.sleep(20); // stay under the per-key limit; 429s are allowed but waste the sample
            }
        }
        System.out.printf("fuzz: %d requests in %.1f s; answers: %s%n", sent, (System.nanoTime() - started) / 1e9, statuses);
        assertThat(failures).as("fuzz failures (answers: %s)", statuses).isEmpty();
        assertThat(sent).isEqualTo(PER_TARGET * targets.size());
    }

    /**
     * MCP arguments that become HTTP headers ({@code api_key}, {@code x_payment}) or may reach a log line:
     * control characters, line breaks carrying a forged log line, NUL, DEL, bidi overrides, ids with a
     * trailing newline, numbers beyond a double. Each is an {@code isError} result naming the argument (or
     * a JSON-RPC error), never a 5xx, and changes nothing; the forged line and the key are searched for
     * in every log after the whole suite ({@link LogEvidence}, {@link StackStopIT}).
     */
    @Test
    void mcpArgumentsBoundForHeadersAndLogsAreRefusedNamingTheArgument() throws Exception {
        String forged = "16:40:00.000 INFO  traceId= spanId= [io.quarkus] (main) FORGED-" + java.util.UUID.randomUUID();
        LogEvidence.forgedLine("forged by an MCP argument", forged);
        LogEvidence.secret("fuzz partner api key", apiKey);
        String invoiceId = "6f1c2b1e-3a4d-4e5f-8a9b-0c1d2e3f4a5b";
        List<String> failures = new ArrayList<>();
        int n = 0;
        String state = mandateState(signedMandate);
        for (String key : List.of(apiKey + "\n", apiKey + "\r\n", apiKey + "\u0000", apiKey + "\u0007", apiKey + "\u007f",
                " " + apiKey, apiKey + "\n" + forged, apiKey + "\u202e")) {
            expectArgumentRefused(failures, "api_key", "service_dispute_open",
                    map("mandate_id", signedMandate, "reason", "fuzzed dispute reason", "api_key", key), n++);
        }
        for (String proof : List.of("eyJ4\n" + forged, "eyJ4\r\n" + forged, "eyJ4\r" + forged, "eyJ4\u0000", "eyJ4\u0007",
                "eyJ4\u007f", "eyJ4 eyJ4", "\u202eeyJ4", "A".repeat(16_385))) {
            expectArgumentRefused(failures, "x_payment", "service_settle_invoice", map("invoice_id", invoiceId, "x_payment", proof), n++);
            expectArgumentRefused(failures, "x_payment", "service_create_invoice",
                    map("issuer", "fuzz", "amount", 0.01, "x_payment", proof), n++);
        }
        expectArgumentRefused(failures, "mandate_id", "service_query_mandate", map("mandate_id", signedMandate + "\n"), n++);
        expectArgumentRefused(failures, "mandate_id", "service_dispute_open",
                map("mandate_id", signedMandate + "\n", "reason", "fuzzed dispute reason", "api_key", apiKey), n++);
        expectArgumentRefused(failures, "invoice_id", "service_settle_invoice", map("invoice_id", invoiceId + "\n"), n++);
        assertThat(mandateState(signedMandate)).as("a refused dispute changes nothing").isEqualTo(state);

        // values that only travel in JSON bodies: a readable tool error or a payment request, never a 5xx
        String invoices = allRows("invoice");
        for (String raw : List.of("{\"issuer\":\"x\\n" + forged + "\",\"amount\":0.01}",
                "{\"description\":\"x\\r\\n" + forged + "\",\"amount\":0.01}", "{\"amount\":1e400}", "{\"amount\":-1e400}",
                "{\"amount\":1e-400}", "{\"amount\":1" + "0".repeat(99) + "}", "{\"issuer\":\"\\u202eevil\",\"amount\":0.01}")) {
            HttpResponse<String> r = mcp("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
                    + "\"service_create_invoice\",\"arguments\":" + raw + "}}", n++);
            if (r.statusCode() != 200 || !JSON.readTree(r.body()).path("result").path("isError").asBoolean()) {
                failures.add("create_invoice " + raw.substring(0, Math.min(80, raw.length())) + " -> " + r.statusCode() + " " + abbreviate(r.body()));
            }
        }
        assertThat(allRows("invoice")).as("no invoice without payment").isEqualTo(invoices);
        // a repeated key anywhere in the message is a parse error
        HttpResponse<String> dup = mcp("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"service_get_pricing\",\"name\":\"service_dispute_open\",\"arguments\":{}}}", n++);
        if (dup.statusCode() != 400 || !dup.body().contains("-32700")) {
            failures.add("duplicate key: " + dup.statusCode() + " " + abbreviate(dup.body()));
        }
        assertThat(failures).isEmpty();
    }

    /**
     * Header values the Java client will not send (control characters, DEL, bytes above 0x7f, a bare CR
     * carrying a forged line), over a raw socket through the gateway into every header a service reads
     * (x-api-key, X-PAYMENT, Idempotency-Key, traceparent, X-Forwarded-For): a 4xx or a refusal of the
     * connection, never a 5xx, and the forged line never starts a log line (checked after the suite).
     */
    @Test
    void rawHeaderValuesWithControlCharactersNeverReach5xxOrALogLine() throws Exception {
        String forged = "16:41:00.000 INFO  traceId= spanId= [io.quarkus] (main) FORGED-HEADER-" + java.util.UUID.randomUUID();
        LogEvidence.forgedLine("forged by a header value", forged);
        java.net.URI gw = URI.create(base);
        List<String> failures = new ArrayList<>();
        String[] values = {apiKey + "\u0001", apiKey + "\u007f", apiKey + "\u00ff", "x\r" + forged, "x\u0000y", "\u0085x"};
        String[][] targets = {
                {"POST", "/v1/mandates", "x-api-key"}, {"POST", "/api/x402/settle", "X-PAYMENT"},
                {"POST", "/v1/invoices", "Idempotency-Key"}, {"GET", "/v1/public/mandates/" + signedMandate, "traceparent"},
                {"POST", "/disco/mcp", "X-Forwarded-For"}};
        for (String[] t : targets) {
            for (String v : values) {
                byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
                String head = t[0] + " " + t[1] + " HTTP/1.1\r\nHost: " + gw.getHost() + ":" + gw.getPort() + "\r\n"
                        + "Content-Type: application/json\r\nConnection: close\r\n"
                        + (t[2].equals("x-api-key") ? "" : "x-api-key: " + apiKey + "\r\n")
                        + t[2] + ": " + v + "\r\nContent-Length: " + (t[0].equals("GET") ? 0 : body.length) + "\r\n\r\n";
                String answer;
                try (java.net.Socket s = new java.net.Socket(gw.getHost(), gw.getPort())) {
                    s.setSoTimeout(10_000);
                    s.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
                    if (!t[0].equals("GET")) {
                        s.getOutputStream().write(body);
                    }
                    answer = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                } catch (java.net.SocketTimeoutException e) {
                    failures.add("HANG " + t[0] + " " + t[1] + " " + t[2]);
                    continue;
                } catch (java.io.IOException e) {
                    continue; // the connection refused outright: acceptable
                }
                if (answer.startsWith("HTTP/1.1 5") || answer.startsWith("HTTP/1.0 5")) {
                    failures.add(answer.substring(0, Math.min(120, answer.length())).replace(apiKey, "<key>") + " for " + t[0] + " " + t[1]
                            + " " + t[2] + "=" + v.replace(apiKey, "<key>").replace("\r", "\\r"));
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    private static void expectArgumentRefused(List<String> failures, String argument, String tool, Map<String, Object> args, int n)
            throws Exception {
        HttpResponse<String> r = mcp(JSON.writeValueAsString(map("jsonrpc", "2.0", "id", 7, "method", "tools/call",
                "params", map("name", tool, "arguments", args))), n);
        com.fasterxml.jackson.databind.JsonNode result = r.statusCode() == 200 ? JSON.readTree(r.body()).path("result") : null;
        if (result == null || !result.path("isError").asBoolean()
                || !"invalid_arguments".equals(result.at("/structuredContent/error/code").asText())
                || !result.at("/content/1/text").asText().contains(argument + ":")
                || r.body().contains(apiKey)) {
            failures.add(tool + " " + argument + "=" + abbreviate(String.valueOf(args.get(argument)).replace("\n", "\\n"))
                    + " -> " + r.statusCode() + " " + abbreviate(r.body().replace(apiKey, "<key>")));
        }
    }

    private static HttpResponse<String> mcp(String body, int n) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(base + "/disco/mcp")).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                // its own client address per call: the anonymous per-address limit is not what this tests
                .header("X-Forwarded-For", "198.18.200." + (n % 250))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    // ---- probes: what a refused request must not change -------------------------------------------

    static String partnerRows(String database) throws Exception {
        return rowCounts(database, true);
    }

    static String allRows(String database) throws Exception {
        return rowCounts(database, false);
    }

    /** Row counts of every table with a {@code partner_id} column (the partner's own rows, or all), anchor receipts aside. */
    static String rowCounts(String database, boolean ownRows) throws Exception {
        List<String> tables = db.strings(database, "select quote_ident(table_name) from information_schema.columns"
                + " where table_schema = 'public' and column_name = 'partner_id' order by table_name");
        StringBuilder sb = new StringBuilder();
        for (String table : tables) {
            // a mandate.anchored event records an anchor receipt landing on its own clock, not an effect of
            // the request under test: it is left out of the count
            String own = "outbox_event".equals(table) ? " and type <> 'mandate.anchored'" : "";
            List<String> n = ownRows
                    ? db.strings(database, "select count(*)::text from " + table + " where partner_id = ?" + own, partnerId)
                    : db.strings(database, "select count(*)::text from " + table + " where true" + own);
            sb.append(table).append('=').append(n.get(0)).append(' ');
        }
        return sb.toString();
    }

    static String mandateState(String id) throws Exception {
        return String.join("|", db.strings("mandate", "select concat_ws('|', state, proposer_signature, counterparty_signature,"
                + " dispute_reason, disputed_at, completed_at) from mandate where id = ?", id)) + " " + partnerRows("mandate");
    }

    /**
     * The OAuth 2.0 token endpoint ({@code POST /oauth/token}, form-encoded) and bearer tokens on a keyed route,
     * fuzzed: random grant types, scopes (known, unknown, hostile text), client ids and secrets (the real ones
     * among them), repeated parameters, both client authentications at once, random content types and
     * Authorization headers. Never a 5xx or a hang; every refusal carries {@code success:false}; a token is only
     * ever issued to the real client with a subset of its scopes; nothing in the database changes; a random or
     * forged bearer token on {@code GET /v1/invoices} is a 4xx.
     */
    @Test
    void tokenEndpointAndBearerTokensNeverAnswer5xxOrIssueForBadCredentials() throws Exception {
        OAuthClients.Client client = OAuthClients.register(env, partnerId, "fuzz-client", List.of("invoices:read", "mandates:read"),
                "fuzz OAuth client secret");
        String clientId = client.id();
        String secret = client.secret();
        Arbitrary<String> text = Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(30), Arbitraries.strings().all().ofMaxLength(12),
                Arbitraries.strings().withChars('a').ofMinLength(2000).ofMaxLength(5000));
        Arbitrary<String> grant = Arbitraries.oneOf(Arbitraries.just("client_credentials"), Arbitraries.of("password",
                "authorization_code", "refresh_token", "CLIENT_CREDENTIALS", ""), text);
        Arbitrary<String> scope = Arbitraries.oneOf(Arbitraries.of("invoices:read", "mandates:read invoices:read", "mandates:write",
                "webhooks:manage", "admin", "invoices:read  mandates:read", " ", "invoices:read\ninvoices:read"), text);
        Arbitrary<String> id = Arbitraries.oneOf(Arbitraries.just(clientId), Arbitraries.just("cli_" + ApiKeys.randomHex(16)), text);
        Arbitrary<String> pass = Arbitraries.oneOf(Arbitraries.just(secret), Arbitraries.just("cs_" + ApiKeys.randomHex(32)), text);
        Arbitrary<String> contentType = Arbitraries.oneOf(Arbitraries.just("application/x-www-form-urlencoded"),
                Arbitraries.of("application/json", "text/plain", "application/x-www-form-urlencoded; charset=ISO-8859-1", "multipart/form-data"));
        String probeSql = "select concat_ws('|', (select count(*) from oauth_client), (select count(*) from oauth_signing_key),"
                + " (select count(*) from partner))";
        // one valid issue first: the platform's first signing key is created at the first token it signs, and
        // that first key is not an effect of the hostile requests below
        HttpResponse<String> first = http.send(HttpRequest.newBuilder(URI.create(base + "/oauth/token")).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&client_id="
                        + java.net.URLEncoder.encode(clientId, StandardCharsets.UTF_8) + "&client_secret="
                        + java.net.URLEncoder.encode(secret, StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(first.statusCode()).as(first.body()).isEqualTo(200);
        String before = String.join("", db.strings("mandate", probeSql));
        List<String> failures = new ArrayList<>();
        Map<String, Integer> statuses = new TreeMap<>();
        for (int i = 0; i < PER_TARGET * 2; i++) {
            Map<String, String> form = new LinkedHashMap<>();
            String g = grant.sample();
            String sc = scope.sample();
            String cid = id.sample();
            String cs = pass.sample();
            boolean basic = Arbitraries.of(true, false).sample();
            if (Arbitraries.integers().between(0, 9).sample() > 0) {
                form.put("grant_type", g);
            }
            if (Arbitraries.of(true, false).sample()) {
                form.put("scope", sc);
            }
            if (!basic || Arbitraries.integers().between(0, 9).sample() == 0) {
                form.put("client_id", cid);
                form.put("client_secret", cs);
            }
            StringBuilder body = new StringBuilder();
            form.forEach((k, v) -> body.append(body.length() == 0 ? "" : "&").append(k).append('=')
                    .append(java.net.URLEncoder.encode(v, StandardCharsets.UTF_8)));
            if (Arbitraries.integers().between(0, 9).sample() == 0) {
                body.append("&scope=invoices:read");
            }
            String ct = contentType.sample();
            HttpRequest.Builder rb = HttpRequest.newBuilder(URI.create(base + "/oauth/token")).timeout(Duration.ofSeconds(10))
                    .header("Content-Type", ct).POST(HttpRequest.BodyPublishers.ofString(body.toString()));
            if (basic) {
                rb.header("Authorization", "Basic " + Base64.getEncoder().encodeToString((java.net.URLEncoder.encode(cid, StandardCharsets.UTF_8)
                        + ":" + java.net.URLEncoder.encode(cs, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8)));
            }
            String what = "POST /oauth/token " + ct + (basic ? " basic" : "") + " body=" + abbreviate(body.toString());
            HttpResponse<String> res;
            try {
                res = http.send(rb.build(), HttpResponse.BodyHandlers.ofString());
            } catch (HttpTimeoutException e) {
                failures.add("HANG " + what);
                continue;
            }
            statuses.merge("/oauth/token " + res.statusCode(), 1, Integer::sum);
            if (res.statusCode() >= 500) {
                failures.add(res.statusCode() + " " + what + " -> " + abbreviate(res.body()));
            } else if (res.statusCode() >= 400 && !res.body().contains("\"success\":false")) {
                failures.add(res.statusCode() + " without success:false: " + abbreviate(res.body()) + " for " + what);
            } else if (res.statusCode() == 200) {
                String granted = JSON.readTree(res.body()).path("scope").asText();
                boolean legit = clientId.equals(cid) && secret.equals(cs) && ct.startsWith("application/x-www-form-urlencoded")
                        && "client_credentials".equals(form.get("grant_type"))
                        && List.of("invoices:read", "mandates:read").containsAll(List.of(granted.split(" ")));
                if (!legit) {
                    failures.add("a token was issued for " + what + " (scope " + granted + ")");
                }
            }
            Thread.sleep(20);
        }
        // random and forged bearer tokens on a keyed route
        Arbitrary<String> bearer = Arbitraries.oneOf(text, Arbitraries.strings().withChars("ABCDEFabcdef0123456789-_.").ofMaxLength(300),
                Arbitraries.just("eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0."), Arbitraries.just("eyJhbGciOiJIUzI1NiJ9.e30.AAAA"));
        for (int i = 0; i < PER_TARGET; i++) {
            String tok = bearer.sample();
            String header = "Bearer " + tok.replaceAll("[\\x00-\\x1f\\x7f]", "?");
            HttpResponse<String> res;
            try {
                res = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/invoices")).timeout(Duration.ofSeconds(10))
                        .header("Authorization", header).GET().build(), HttpResponse.BodyHandlers.ofString());
            } catch (IllegalArgumentException notAHeader) {
                continue;
            } catch (HttpTimeoutException e) {
                failures.add("HANG bearer " + abbreviate(header));
                continue;
            }
            statuses.merge("/v1/invoices bearer " + res.statusCode(), 1, Integer::sum);
            if (res.statusCode() < 400 || res.statusCode() >= 500) {
                failures.add(res.statusCode() + " for a random bearer token " + abbreviate(header));
            }
            Thread.sleep(20);
        }
        System.out.printf("fuzz oauth: answers %s%n", statuses);
        assertThat(failures).as("oauth fuzz failures (answers: %s)", statuses).isEmpty();
        assertThat(String.join("", db.strings("mandate", probeSql))).as("nothing changed").isEqualTo(before);
    }

    // ---- generators --------------------------------------------------------------------------------

    static Map<String, Object> validMandate() {
        return map("proposer", "agent-fuzz-a", "counterparty", "agent-fuzz-b", "scope", "fuzzing",
                "terms", map("amount", 1, "currency", "USDC"), "expiry", Instant.now().plus(1, ChronoUnit.DAYS).toString());
    }

    /** A mandate with a budget (issue 28): the fuzz mutates the budget's members too. */
    static Map<String, Object> validBudgetMandate() {
        Map<String, Object> m = new java.util.LinkedHashMap<>(validMandate());
        m.put("budget", map("amount", "5.25", "currency", "USDC", "max_per_charge", "1.5", "period", "P30D"));
        return m;
    }

    /**
     * The charged mandate's budget money and its charges (rows other services write later, after an accepted charge, are
     * not counted: only a refusal must leave this unchanged, and nothing asynchronous moves it within the test).
     */
    static String budgetState() throws Exception {
        return String.join("|", db.strings("mandate", "select concat_ws('|', reserved_atomic, spent_atomic, period_start,"
                + " (select count(*) from mandate_charge c where c.mandate_id = b.mandate_id)) from mandate_budget b"
                + " where b.mandate_id = ?", budgetMandate));
    }

    static Map<String, Object> validInvoice() {
        return map("amount", 3.5, "currency", "USDC", "customerEmail", "fuzz@example.com", "customerName", "Fuzz", "chain", "base");
    }

    static Map<String, Object> validMcpCall() {
        return map("jsonrpc", "2.0", "id", 1, "method", "tools/call",
                "params", map("name", "service_create_invoice", "arguments", map("issuer", "fuzz", "amount", 0.01)));
    }

    /** Random JSON values, nested a few levels, with hostile scalars. */
    static Arbitrary<Object> jsonValue(int depth) {
        Arbitrary<Object> scalars = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(40).map(s -> (Object) s),
                Arbitraries.strings().all().ofMaxLength(20).map(s -> (Object) s),
                Arbitraries.strings().withChars('x').ofMinLength(1000).ofMaxLength(20_000).map(s -> (Object) s),
                Arbitraries.integers().map(n -> (Object) n),
                Arbitraries.longs().map(n -> (Object) n),
                Arbitraries.bigIntegers().between(java.math.BigInteger.TEN.pow(30).negate(), java.math.BigInteger.TEN.pow(80)).map(n -> (Object) n),
                Arbitraries.doubles().map(d -> (Object) d),
                Arbitraries.of(true, false).map(b -> (Object) b),
                Arbitraries.just(null),
                Arbitraries.of("", " ", "0", "-1", "1e309", "NaN", "null", "true", "mnd_x", "../../admin", "base", "solana", "USDC",
                        "proposer", "counterparty", "2020-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "not-a-date", "a@b",
                        "\u0000", "\ud800", "\udb53\ua49b", "x\udc00\u00e9", "'; drop table mandate; --", "<script>", "http://169.254.169.254/latest",
                        "http://[::1]:8081/admin/partners", "file:///etc/passwd").map(s -> (Object) s));
        if (depth <= 0) {
            return scalars;
        }
        Arbitrary<Object> lists = jsonValue(depth - 1).list().ofMaxSize(4).map(l -> (Object) l);
        Arbitrary<Object> maps = Arbitraries.maps(Arbitraries.strings().alpha().ofMaxLength(8), jsonValue(depth - 1))
                .ofMaxSize(4).map(m -> (Object) m);
        return Arbitraries.frequencyOf(
                Tuple.of(6, scalars), Tuple.of(2, lists), Tuple.of(2, maps));
    }

    /** A valid body with one or two fields broken, dropped or added; or a random or malformed document. */
    static Arbitrary<byte[]> bodies(Target t) {
        Arbitrary<byte[]> mutated = Combinators.combine(
                        Arbitraries.integers().between(0, 3), Arbitraries.integers().between(0, 50), jsonValue(2),
                        Arbitraries.strings().alpha().ofMaxLength(10))
                .as((op, which, value, extraKey) -> {
                    Map<String, Object> m = new LinkedHashMap<>(t.valid().get());
                    List<String> keys = new ArrayList<>(m.keySet());
                    String key = keys.get(which % keys.size());
                    switch (op) {
                        case 0 -> m.remove(key);
                        case 1, 2 -> m.put(key, value);
                        default -> m.put(extraKey.isEmpty() ? "extra" : extraKey, value);
                    }
                    return json(m);
                });
        Arbitrary<byte[]> random = jsonValue(3).map(FuzzIT::json);
        Arbitrary<byte[]> malformed = Arbitraries.oneOf(
                Arbitraries.strings().all().ofMaxLength(200).map(s -> s.getBytes(StandardCharsets.UTF_8)),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(300),
                Arbitraries.integers().between(33, 2000).map(d -> ("[".repeat(d) + "]".repeat(d)).getBytes(StandardCharsets.UTF_8)),
                Arbitraries.integers().between(33, 2000).map(d -> ("{\"a\":".repeat(d) + "1" + "}".repeat(d)).getBytes(StandardCharsets.UTF_8)),
                Arbitraries.integers().between(1, 40).map(cut -> {
                    byte[] whole = json(t.valid().get());
                    return java.util.Arrays.copyOf(whole, Math.max(0, whole.length - cut));
                }),
                Arbitraries.of("", "null", "[]", "{}", "\"x\"", "1", "{\"a\":1,\"a\":2}", "\ufeff{}", "{\"amount\":1" + "0".repeat(500) + "}",
                        "{\"x\":\"" + "y".repeat(70_000) + "\"}").map(s -> s.getBytes(StandardCharsets.UTF_8)));
        return Arbitraries.frequencyOf(Tuple.of(5, mutated), Tuple.of(2, random),
                Tuple.of(3, malformed));
    }

    static Arbitrary<Map<String, String>> headers() {
        Arbitrary<String> visible = Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(60);
        // Mostly well-formed headers, so most bodies reach the endpoint's own validation; hostile ones the rest of the time.
        Arbitrary<String> contentType = Arbitraries.frequencyOf(
                Tuple.of(8, Arbitraries.just("application/json")),
                Tuple.of(1, Arbitraries.of("application/json; charset=utf-8", "application/json; charset=iso-8859-1", "text/plain",
                        "application/x-www-form-urlencoded", "multipart/form-data", "application/xml", "*/*",
                        "application/json, text/plain", ";;;", "application/")),
                Tuple.of(1, visible));
        Arbitrary<String> key = Arbitraries.frequencyOf(
                Tuple.of(8, Arbitraries.just("<fuzz key>").map(k -> apiKey)),
                Tuple.of(1, Arbitraries.oneOf(
                        Arbitraries.just("").map(k -> ApiKeys.generate()),
                        Arbitraries.just("").map(k -> apiKey.toUpperCase()),
                        Arbitraries.just("").map(k -> apiKey + "," + apiKey),
                        Arbitraries.just("").map(k -> env.get("API_KEY_2")),
                        Arbitraries.strings().withChars('a').ofLength(5000))),
                Tuple.of(1, visible));
        Arbitrary<String> payment = Arbitraries.oneOf(visible,
                jsonValue(2).map(v -> Base64.getEncoder().encodeToString(json(v))),
                Arbitraries.just("").map(k -> Base64.getEncoder().encodeToString(("{\"x402Version\":1,\"scheme\":\"exact\","
                        + "\"network\":\"base\",\"payload\":{\"signature\":\"0x00\",\"authorization\":{}}}").getBytes(StandardCharsets.UTF_8))));
        Arbitrary<String> forwarded = Arbitraries.oneOf(
                Arbitraries.integers().between(0, 65535).map(n -> "198.18." + (n >> 8) + "." + (n & 0xff)),
                Arbitraries.integers().between(0, 65535).map(n -> "198.19." + (n >> 8) + "." + (n & 0xff)),
                visible);
        return Combinators.combine(contentType.injectNull(0.05), key.injectNull(0.05), payment.injectNull(0.6),
                        forwarded, visible.injectNull(0.7),
                        Arbitraries.frequencyOf(Tuple.of(6, Arbitraries.just("application/json")), Tuple.of(3, Arbitraries.just("*/*")),
                                Tuple.of(1, Arbitraries.of("text/html", "application/xml"))).injectNull(0.5))
                .as((ct, k, pay, xff, idem, accept) -> {
                    Map<String, String> h = new LinkedHashMap<>();
                    put(h, "Content-Type", ct);
                    put(h, "x-api-key", k);
                    put(h, "X-PAYMENT", pay);
                    put(h, "X-Forwarded-For", xff);
                    put(h, "Idempotency-Key", idem);
                    put(h, "Accept", accept);
                    return h;
                });
    }

    private static void put(Map<String, String> h, String name, String value) {
        // The client refuses empty or padded header values; the server's handling of those is not what this tests.
        if (value != null && !value.isBlank() && value.equals(value.strip())) {
            h.put(name, value);
        }
    }

    static byte[] json(Object v) {
        try {
            return JSON.writeValueAsBytes(v);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    private static String describe(Target t, Map<String, String> headers, byte[] body) {
        return t.method() + " " + t.path() + " headers=" + abbreviate(headers.toString()) + " body="
                + abbreviate(new String(body, StandardCharsets.UTF_8));
    }

    /**
     * Mandates with more than two parties (issue 28 item 5): each bad input is refused with its 4xx and code,
     * names what is wrong, and changes nothing (no mandate row, no event; a refused signature leaves the
     * mandate's state and parties as they were).
     */
    @Test
    void partiesBadInputsAreRefusedNamingTheFieldAndChangeNothing() throws Exception {
        List<Map<String, Object>> seventeen = new ArrayList<>();
        for (int i = 0; i < 17; i++) {
            seventeen.add(map("id", "agent:fuzz-" + i, "role", "r" + i));
        }
        Map<String, Object> both = partiesMandate(List.of(map("id", "agent:a", "role", "a"), map("id", "agent:b", "role", "b")));
        both.put("proposer", "agent:a");
        both.put("counterparty", "agent:b");
        Map<String, Object> neither = partiesMandate(List.of());
        neither.remove("parties");
        Map<String, Map<String, Object>> bad = new java.util.LinkedHashMap<>();
        bad.put("parties: must list 2 to 16 parties", partiesMandate(seventeen));
        bad.put("parties[1].role: must be unique", partiesMandate(List.of(map("id", "agent:a", "role", "buyer"),
                map("id", "agent:b", "role", "buyer"))));
        bad.put("parties[1].id: must be unique", partiesMandate(List.of(map("id", "agent:a", "role", "buyer"),
                map("id", "agent:a", "role", "seller"))));
        bad.put("parties[0].role: must be a lowercase name", partiesMandate(List.of(map("id", "agent:a", "role", "Buyer"),
                map("id", "agent:b", "role", "seller"))));
        bad.put("parties[1].role: must be a lowercase name", partiesMandate(List.of(map("id", "agent:a", "role", "buyer"),
                map("id", "agent:b", "role", "sel ler"))));
        bad.put("parties: must not be sent with proposer or counterparty", both);
        bad.put("counterparty: is required", neither);
        for (Map.Entry<String, Map<String, Object>> e : bad.entrySet()) {
            String before = partnerRows("mandate");
            Response r = given().baseUri(base).header("x-api-key", apiKey).contentType("application/json").body(e.getValue())
                    .post("/v1/mandates");
            assertThat(r.statusCode()).as(e.getKey() + ": " + r.asString()).isEqualTo(400);
            assertThat(r.jsonPath().getString("error.code")).isEqualTo("validation_error");
            assertThat(r.jsonPath().getString("error.message")).as(r.asString()).startsWith(e.getKey());
            assertThat(partnerRows("mandate")).as("refused, yet changed: " + e.getKey()).isEqualTo(before);
        }

        // a three-party mandate: wrong signing order, a role not in the mandate, an uppercase role, another role's HMAC
        String id = given().baseUri(base).header("x-api-key", apiKey).contentType("application/json")
                .body(partiesMandate(List.of(map("id", "agent:fuzz-buyer", "role", "buyer"),
                        map("id", "agent:fuzz-seller", "role", "seller"), map("id", "agent:fuzz-witness", "role", "witness"))))
                .post("/v1/mandates").then().statusCode(201).extract().path("data.mandate_id");
        String sig = ApiKeys.randomHex(32);
        Object[][] signs = {
                {"seller", 409, "invalid_transition", "the next signer is \"buyer\""},
                {"auditor", 400, "invalid_signer", "signer must be one of this mandate's roles: buyer, seller, witness"},
                {"BUYER", 400, "invalid_signer", "signer must be"},
                {"proposer", 400, "invalid_signer", "signer must be one of this mandate's roles"},
                {"buyer", 403, "invalid_signature", "signature is not the HMAC-SHA256"}};
        for (Object[] s : signs) {
            String before = partiesState(id);
            Response r = given().baseUri(base).header("x-api-key", apiKey).contentType("application/json")
                    .body(map("signer", s[0], "signature", sig)).post("/v1/mandates/" + id + "/sign");
            assertThat(r.statusCode()).as(s[0] + ": " + r.asString()).isEqualTo(s[1]);
            assertThat(r.jsonPath().getString("error.code")).isEqualTo(s[2]);
            assertThat(r.jsonPath().getString("error.message")).contains((String) s[3]);
            assertThat(partiesState(id)).as("refused sign " + s[0] + " changed the mandate").isEqualTo(before);
        }
    }

    static Map<String, Object> partiesMandate(List<Map<String, Object>> parties) {
        Map<String, Object> body = validMandate();
        body.remove("proposer");
        body.remove("counterparty");
        body.put("parties", parties);
        return body;
    }

    static String partiesState(String id) throws Exception {
        return String.join("|", db.strings("mandate", "select concat_ws('|', state, parties) from mandate where id = ?", id))
                + " " + partnerRows("mandate");
    }

    private static String abbreviate(String s) {
        return s.length() <= 400 ? s : s.substring(0, 400) + "...(" + s.length() + " chars)";
    }
}
