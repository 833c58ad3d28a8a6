package dev.agentpay.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import dev.agentpay.commons.auth.ApiKeys;
import io.restassured.response.Response;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Issue 10's security checks against the running stack: secrets never in logs, keys stored hashed,
 * admin endpoints not routed by the gateway, rate limits and body limits answered as documented.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Order(2)
class SecurityIT {

    /** The second anchor chain's signer on the local stack (deploy/local ChainSetup: anvil account #8, base). */
    static final String BASE_ANCHOR_SIGNER_KEY = "0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97";

    static Map<String, String> env;
    static String base;
    static LocalStackProcess stack;
    /** Every secret seen or issued during this class (name -> value), searched for in the logs. */
    static final Map<String, String> secrets = new LinkedHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        env = SharedStack.env();
        stack = SharedStack.process();
        base = env.get("BASE_URL");
        for (String k : List.of("API_KEY", "API_KEY_2", "SIGNING_SECRET", "SIGNING_SECRET_2", "ADMIN_API_KEY")) {
            secrets.put(k, env.get(k));
        }
    }

    @Test
    @Order(1)
    void adminEndpointsAreNotReachableThroughTheGateway() {
        String admin = env.get("ADMIN_API_KEY");
        for (String path : List.of("/admin/partners", "/admin/partners/dev-partner-1", "/admin/transfers/unmatched",
                "/v1/public/../../admin/partners", "/v1/mandates/%2e%2e/%2e%2e/admin/partners",
                "/v1/public/..%2f..%2fadmin/partners", "//admin/partners", "/ADMIN/partners")) {
            Response r = given().baseUri(base).urlEncodingEnabled(false).header("x-admin-key", admin).get(path);
            assertThat(r.statusCode()).as("GET %s through the gateway: %s", path, r.asString()).isIn(400, 404);
            assertThat(r.asString()).as(path).doesNotContain("dev-partner-1\",\"name\"");
        }
        given().baseUri(base).header("x-admin-key", admin).contentType("application/json").body("{\"name\":\"x\"}")
                .post("/admin/partners").then().statusCode(404);
        // On the service's own port (the operator's network) it is there, and needs the admin key.
        given().baseUri(env.get("MANDATE_SERVICE_URL")).header("x-admin-key", admin).get("/admin/partners")
                .then().statusCode(200);
        given().baseUri(env.get("MANDATE_SERVICE_URL")).get("/admin/partners").then().statusCode(401);
        given().baseUri(env.get("MANDATE_SERVICE_URL")).header("x-admin-key", "adm_" + ApiKeys.randomHex(32))
                .get("/admin/partners").then().statusCode(401);
    }

    @Test
    @Order(2)
    void aFullRoundOfTrafficLeavesNoSecretInAnyLog() throws Exception {
        String adminUrl = env.get("MANDATE_SERVICE_URL");
        String admin = env.get("ADMIN_API_KEY");

        // Operator: issue, rotate, revoke a partner (each answer shows a secret once).
        Response issued = given().baseUri(adminUrl).header("x-admin-key", admin).contentType("application/json")
                .body(Map.of("name", "security-it")).post("/admin/partners");
        assertThat(issued.statusCode()).as(issued.asString()).isEqualTo(201);
        String partnerId = issued.path("data.id");
        secrets.put("issued api_key", issued.path("data.api_key"));
        secrets.put("issued signing_secret", issued.path("data.signing_secret"));
        Response rotated = given().baseUri(adminUrl).header("x-admin-key", admin).post("/admin/partners/" + partnerId + "/rotate-key");
        assertThat(rotated.statusCode()).as(rotated.asString()).isBetween(200, 201);
        secrets.put("rotated api_key", rotated.path("data.api_key"));
        Response rotatedSecret = given().baseUri(adminUrl).header("x-admin-key", admin)
                .post("/admin/partners/" + partnerId + "/rotate-signing-secret");
        assertThat(rotatedSecret.statusCode()).as(rotatedSecret.asString()).isBetween(200, 201);
        secrets.put("rotated signing_secret", rotatedSecret.path("data.signing_secret"));
        given().baseUri(adminUrl).header("x-admin-key", admin).post("/admin/partners/" + partnerId + "/revoke")
                .then().statusCode(200);
        // Wrong credentials are refused and are secrets too (a typo'd real key).
        String wrongKey = ApiKeys.generate();
        String wrongAdmin = "adm_" + ApiKeys.randomHex(32);
        secrets.put("wrong api key", wrongKey);
        secrets.put("wrong admin key", wrongAdmin);
        given().baseUri(base).header("x-api-key", wrongKey).get("/v1/invoices").then().statusCode(401);
        given().baseUri(adminUrl).header("x-admin-key", wrongAdmin).get("/admin/partners").then().statusCode(401);
        await().atMost(java.time.Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).until(() -> given().baseUri(base).header("x-api-key", secrets.get("rotated api_key"))
                .get("/v1/mandates/mnd_x").statusCode() == 401 ? true : null, Objects::nonNull);

        // Partners: a mandate through its states, an invoice, a webhook subscription, through the gateway.
        MandateFlows flows = new MandateFlows(base, env.get("API_KEY"), env.get("SIGNING_SECRET"));
        String id = flows.create();
        String sig = flows.signature(flows.get(id));
        flows.sign(id, "proposer", sig);
        flows.sign(id, "counterparty", sig);
        given().baseUri(base).header("x-api-key", env.get("API_KEY")).contentType("application/json")
                .body(Map.of("reason", "security check dispute")).post("/v1/mandates/" + id + "/dispute");
        given().baseUri(base).header("x-api-key", env.get("API_KEY_2")).contentType("application/json")
                .body(Map.of("signer", "proposer", "signature", ApiKeys.randomHex(32))).post("/v1/mandates/" + id + "/sign")
                .then().statusCode(404);
        given().baseUri(base).header("x-api-key", env.get("API_KEY")).contentType("application/json")
                .body(Map.of("amount", 12.5, "currency", "USDC", "customerEmail", "buyer@example.com",
                        "customerName", "Security IT", "chain", "base"))
                .post("/v1/invoices").then().statusCode(201);
        String hookSecret = "whsec_" + ApiKeys.randomHex(24);
        secrets.put("webhook secret", hookSecret);
        Response hook = given().baseUri(base).header("x-api-key", env.get("API_KEY_2")).contentType("application/json")
                .body(Map.of("url", "http://127.0.0.1:9/hook", "events", List.of("mandate.proposed"), "secret", hookSecret))
                .post("/v1/webhooks");
        assertThat(hook.statusCode()).as(hook.asString()).isLessThan(500);
        // The traffic has gone through every hop before the logs are read: the mandate's transitions were
        // consumed by anchor-service, anchored, and their receipts consumed back by mandate-service (the
        // dispute, the last transition, anchored and visible in the public proof).
        await("the disputed transition anchored and its receipt applied").atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofMillis(250)).until(() -> {
                    Response proof = given().baseUri(base).get("/v1/public/mandates/" + id + "/proof");
                    return proof.statusCode() == 200
                            && proof.jsonPath().getList("data.anchors.to_state", String.class).contains("disputed");
                });

        List<Path> logs;
        try (Stream<Path> s = Files.list(stack.stateDir.resolve("logs"))) {
            logs = s.filter(Files::isRegularFile).sorted().toList();
        }
        assertThat(logs).as("service logs").anyMatch(p -> p.getFileName().toString().equals("mandate-service.log"))
                .anyMatch(p -> p.getFileName().toString().equals("anchor-service.log"))
                .anyMatch(p -> p.getFileName().toString().equals("anchor-service-base.log"));
        List<String> found = new ArrayList<>();
        long bytes = 0;
        for (Path log : logs) {
            String text = new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
            bytes += text.length();
            Map<String, String> wanted = new LinkedHashMap<>(secrets);
            // Anvil prints its own well-known development keys in its start banner (the same for every
            // anvil); the anchor signer and dev payer are two of them. Everywhere else they are secrets.
            if (!log.getFileName().toString().startsWith("anvil-")) {
                wanted.put("DEV_PAYER_PRIVATE_KEY", env.get("DEV_PAYER_PRIVATE_KEY"));
                wanted.put("anchor signer key", dev.agentpay.localstack.AnvilNode.DEV_KEY_0);
                wanted.put("base anchor signer key", BASE_ANCHOR_SIGNER_KEY);
            }
            wanted.forEach((name, value) -> {
                if (value != null && text.contains(strip0x(value))) {
                    found.add(name + " in " + log.getFileName());
                }
            });
        }
        assertThat(bytes).as("logs were written").isGreaterThan(10_000);
        assertThat(found).as("secrets found in logs").isEmpty();
        secrets.forEach(LogEvidence::secret); // searched again over every log after the whole suite (StackStopIT)
    }

    @Test
    @Order(3)
    void keysAreStoredOnlyAsTheirHashes() throws Exception {
        StackDb db = new StackDb(env);
        assertThat(db.strings("mandate", "select api_key_hash from partner where id = ?", "dev-partner-1"))
                .containsExactly(ApiKeys.hash(env.get("API_KEY")));
        assertThat(db.strings("mandate", "select api_key_hash from partner where id = ?", "dev-partner-2"))
                .containsExactly(ApiKeys.hash(env.get("API_KEY_2")));
        List<String> keys = new ArrayList<>(List.of(env.get("API_KEY"), env.get("API_KEY_2"), env.get("ADMIN_API_KEY")));
        secrets.forEach((name, value) -> {
            if (name.contains("api_key") || name.contains("api key") || name.contains("admin")) {
                keys.add(value);
            }
        });
        List<String> databases = db.databases();
        assertThat(databases).contains("mandate", "invoice", "anchor", "watcher", "discovery", "webhook");
        int rows = 0;
        List<String> leaks = new ArrayList<>();
        for (String database : databases) {
            for (String table : db.tables(database)) {
                for (String row : db.rowsAsText(database, table)) {
                    rows++;
                    for (String key : keys) {
                        if (row.contains(key)) {
                            leaks.add(database + "." + table);
                        }
                    }
                }
            }
        }
        assertThat(rows).as("rows scanned").isGreaterThan(10);
        assertThat(leaks).as("tables holding a raw API or admin key").isEmpty();
    }

    @Test
    @Order(4)
    void aBurstFromOneAddressGets429WithRetryAfterAndRateLimitHeaders() throws Exception {
        String client = "198.51.100." + (1 + (int) (Math.random() * 250));
        String path = "/v1/public/mandates/mnd_00000000-0000-0000-0000-000000000000";
        List<HttpResponse<String>> answers = burst(150, Map.of("X-Forwarded-For", client), path);
        List<HttpResponse<String>> refused = answers.stream().filter(r -> r.statusCode() == 429).toList();
        List<HttpResponse<String>> served = answers.stream().filter(r -> r.statusCode() != 429).toList();
        assertThat(served).as("the burst allowance").hasSizeGreaterThanOrEqualTo(40);
        assertThat(served).allSatisfy(r -> {
            assertThat(r.statusCode()).isEqualTo(404);
            assertThat(header(r, "RateLimit-Limit")).isEqualTo("40");
            assertThat(Integer.parseInt(header(r, "RateLimit-Remaining"))).isBetween(0, 39);
            assertThat(Long.parseLong(header(r, "RateLimit-Reset"))).isBetween(0L, 2L);
        });
        assertThat(refused).as("refused beyond the burst (%d served)", served.size()).isNotEmpty();
        HttpResponse<String> r = refused.get(0);
        assertThat(header(r, "Content-Type")).startsWith("application/json");
        assertThat(r.body()).contains("\"success\":false").contains("\"code\":\"rate_limited\"");
        assertThat(Long.parseLong(header(r, "Retry-After"))).isBetween(1L, 2L);
        assertThat(header(r, "RateLimit-Limit")).isEqualTo("40");
        assertThat(header(r, "RateLimit-Remaining")).isEqualTo("0");

        // Another client is not affected; the first one is served again once Retry-After has passed.
        given().baseUri(base).header("X-Forwarded-For", "198.51.100.254, 203.0.113.77").get(path).then().statusCode(404);
        long retryAfter = Long.parseLong(header(r, "Retry-After"));
        await("the limited client served again within Retry-After (" + retryAfter + " s)")
                .atMost(Duration.ofSeconds(retryAfter).plusMillis(500)).pollInterval(Duration.ofMillis(100))
                .until(() -> given().baseUri(base).header("X-Forwarded-For", client).get(path).statusCode(), equalTo(404));
        // Health and metrics are never limited.
        given().baseUri(env.get("MANDATE_SERVICE_URL")).get("/q/health/ready").then().statusCode(200);
    }

    @Test
    @Order(5)
    void aBurstWithOneApiKeyGets429ForThatPartnerOnly() throws Exception {
        Response issued = given().baseUri(env.get("MANDATE_SERVICE_URL")).header("x-admin-key", env.get("ADMIN_API_KEY"))
                .contentType("application/json").body(Map.of("name", "burst-it")).post("/admin/partners");
        String key = issued.path("data.api_key");
        secrets.put("burst api key", key);
        String path = "/v1/mandates/mnd_00000000-0000-0000-0000-000000000000";
        await().atMost(java.time.Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(250)).until(() -> given().baseUri(base).header("x-api-key", key)
                .get(path).statusCode() == 404 ? true : null, Objects::nonNull);
        // the key's bucket full again (what the wait took refilled): a probe leaves all but its own token
        await("the key's bucket refilled").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).until(() -> {
            Response probe = given().baseUri(base).header("x-api-key", key).get(path);
            String limit = probe.header("RateLimit-Limit");
            String remaining = probe.header("RateLimit-Remaining");
            return limit != null && remaining != null && Integer.parseInt(remaining) >= Integer.parseInt(limit) - 1;
        });
        List<HttpResponse<String>> answers = burst(300, Map.of("x-api-key", key), path);
        long served = answers.stream().filter(r -> r.statusCode() == 404).count();
        List<HttpResponse<String>> refused = answers.stream().filter(a -> a.statusCode() == 429).toList();
        assertThat(served).isGreaterThanOrEqualTo(100);
        assertThat(refused).as("refused beyond the burst (%d served)", served).isNotEmpty();
        HttpResponse<String> r = refused.get(0);
        assertThat(header(r, "RateLimit-Limit")).isEqualTo("100");
        assertThat(r.body()).contains("\"code\":\"rate_limited\"");
        assertThat(header(r, "Retry-After")).isNotNull();
        // The development partner is untouched.
        given().baseUri(base).header("x-api-key", env.get("API_KEY")).get(path).then().statusCode(404);
    }

    @Test
    @Order(6)
    void oversizeAndOverdeepBodiesAreRefusedWithTheEnvelope() {
        String big = "{\"scope\":\"" + "x".repeat(70 * 1024) + "\"}";
        given().baseUri(base).header("x-api-key", env.get("API_KEY")).contentType("application/json").body(big)
                .post("/v1/mandates").then().statusCode(413).body("success", equalTo(false))
                .body("error.code", equalTo("payload_too_large"));
        // Chunked (no Content-Length): refused once it grows past the limit.
        Response chunked = given().baseUri(base).header("x-api-key", env.get("API_KEY")).contentType("application/json")
                .body(new java.io.ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8))).post("/v1/invoices");
        assertThat(chunked.statusCode()).as(chunked.asString()).isEqualTo(413);
        String deep = "[".repeat(200) + "]".repeat(200);
        Response r = given().baseUri(base).header("x-api-key", env.get("API_KEY")).contentType("application/json")
                .body("{\"amount\":1,\"chain\":\"base\",\"customerName\":" + deep + "}").post("/v1/invoices");
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(400);
        assertThat(r.<Boolean>path("success")).isFalse();
    }

    private static String strip0x(String v) {
        return v.startsWith("0x") ? v.substring(2) : v;
    }

    /** {@code n} requests in flight at once, so the burst does not depend on how fast this machine answers. */
    static List<HttpResponse<String>> burst(int n, Map<String, String> headers, String path) throws Exception {
        // HTTP/1.1: one connection per request in flight (an h2c upgrade would cap concurrent streams).
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(java.time.Duration.ofSeconds(5)).build();
        List<CompletableFuture<HttpResponse<String>>> inFlight = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(java.time.Duration.ofSeconds(30)).GET();
            headers.forEach(b::header);
            inFlight.add(client.sendAsync(b.build(), HttpResponse.BodyHandlers.ofString()));
        }
        List<HttpResponse<String>> out = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> f : inFlight) {
            out.add(f.get());
        }
        return out;
    }

    static String header(HttpResponse<?> r, String name) {
        return r.headers().firstValue(name).orElse(null);
    }

    /**
     * Issue 33 item 1, the slow-body attack through the real gateway: 220 connections each send
     * {@code POST /api/x402/invoice} with {@code Content-Length: 100} and one byte (and each its own
     * {@code X-Forwarded-For}); the gateway reads bodies whole before it takes a service connection, so
     * other routes, on the same service and another, keep answering: p99 under 100 ms (or twice the
     * quiet p99 measured just before, when this shared machine is slower than that).
     */
    @Test
    @Order(101)
    void aSlowBodyAttackLeavesOtherRoutesAnswering() throws Exception {
        URI gw = URI.create(base);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<HttpRequest> others = List.of(
                HttpRequest.newBuilder(URI.create(base + "/v1/invoices/inv_00000000-0000-0000-0000-000000000000/pay"))
                        .header("X-Forwarded-For", "198.18.33.1").timeout(Duration.ofSeconds(30)).build(),
                HttpRequest.newBuilder(URI.create(base + "/llms.txt")).header("X-Forwarded-For", "198.18.33.2")
                        .timeout(Duration.ofSeconds(30)).build());
        for (int i = 0; i < 10; i++) {
            for (HttpRequest r : others) {
                client.send(r, HttpResponse.BodyHandlers.discarding());
            }
        }
        long quiet = slowestOf(client, others, 50);
        List<java.net.Socket> slow = new ArrayList<>();
        try {
            for (int i = 0; i < 220; i++) {
                java.net.Socket s = new java.net.Socket(gw.getHost(), gw.getPort());
                s.setSoTimeout(30_000);
                s.getOutputStream().write(("POST /api/x402/invoice HTTP/1.1\r\nHost: " + gw.getAuthority()
                        + "\r\nContent-Type: application/json\r\nX-Forwarded-For: 198.18.34." + (i % 250)
                        + "\r\nContent-Length: 100\r\n\r\n{").getBytes(StandardCharsets.ISO_8859_1));
                s.getOutputStream().flush();
                slow.add(s);
            }
            // 50 rounds of the two routes: 100 samples, whose p99 is the second slowest (with 30, the p99 was the slowest
            // sample, and one scheduling blip on a loaded two-CPU machine failed the test: 207 ms against 2 x 76 ms)
            long underAttack = slowestOf(client, others, 50);
            assertThat(underAttack).as("p99 of other routes under the slow-body attack (quiet p99 %d ms)", quiet)
                    .isLessThan(Math.max(100, 2 * quiet));
            // each slow body gets the 408 envelope at the gateway's body deadline
            String answer = new String(slow.get(0).getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertThat(answer).startsWith("HTTP/1.1 408").contains("\"code\":\"request_timeout\"");
        } finally {
            for (java.net.Socket s : slow) {
                s.close();
            }
        }
    }

    /** The p99 (in ms) of {@code rounds} rounds of {@code requests}, sequentially (with 100 samples, the second slowest). */
    private static long slowestOf(HttpClient client, List<HttpRequest> requests, int rounds) throws Exception {
        List<Long> ms = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            for (HttpRequest r : requests) {
                long t0 = System.nanoTime();
                HttpResponse<Void> answer = client.send(r, HttpResponse.BodyHandlers.discarding());
                ms.add((System.nanoTime() - t0) / 1_000_000);
                assertThat(answer.statusCode()).as("%s", r.uri()).isLessThan(500);
            }
        }
        ms.sort(null);
        return ms.get((int) Math.ceil(ms.size() * 0.99) - 1);
    }

    /**
     * Issue 33 item 4: MCP tool calls no longer skip the per-address limit. discovery-service names the MCP
     * caller in X-Forwarded-For when it calls mandate-service, so one address's REST reads and MCP tool calls
     * draw on one allowance: with both in flight at once from one address, tool calls meet mandate-service's
     * 429 (as an isError result naming it); another address's tool call is served.
     */
    @Test
    @Order(102)
    void mcpToolCallsAndRestShareOnePerAddressAllowance() throws Exception {
        String client = "198.18.44." + (1 + (int) (Math.random() * 250));
        String mandate = "mnd_00000000-0000-0000-0000-000000000000";
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        String call = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"service_query_mandate\","
                + "\"arguments\":{\"mandate_id\":\"" + mandate + "\"}}}";
        java.util.function.Function<String, HttpRequest> mcp = address -> HttpRequest.newBuilder(URI.create(base + "/disco/mcp"))
                .header("X-Forwarded-For", address).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream").timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(call)).build();
        HttpRequest read = HttpRequest.newBuilder(URI.create(base + "/v1/public/mandates/" + mandate))
                .header("X-Forwarded-For", client).timeout(Duration.ofSeconds(30)).build();
        List<CompletableFuture<HttpResponse<String>>> rest = new ArrayList<>();
        List<CompletableFuture<HttpResponse<String>>> tools = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            rest.add(http.sendAsync(read, HttpResponse.BodyHandlers.ofString()));
            if (i % 3 == 0) {
                tools.add(http.sendAsync(mcp.apply(client), HttpResponse.BodyHandlers.ofString()));
            }
        }
        // REST reads from the same address go on until every tool call has its answer, eight in flight, far above the
        // address's refill (20/s): the allowance stays spent for as long as discovery-service takes to forward the
        // calls. A burst alone left the calls of a slow (loaded) discovery-service to a refilled allowance.
        CompletableFuture<Void> allTools = CompletableFuture.allOf(tools.toArray(CompletableFuture[]::new));
        java.util.concurrent.atomic.AtomicInteger pressed = new java.util.concurrent.atomic.AtomicInteger();
        List<Thread> pressure = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            Thread th = new Thread(() -> {
                while (!allTools.isDone()) {
                    try {
                        if (http.send(read, HttpResponse.BodyHandlers.discarding()).statusCode() == 429) {
                            pressed.incrementAndGet();
                        }
                    } catch (Exception e) {
                        return;
                    }
                }
            }, "mcp-rest-pressure-" + t);
            th.start();
            pressure.add(th);
        }
        int restLimited = 0;
        for (var f : rest) {
            restLimited += f.get().statusCode() == 429 ? 1 : 0;
        }
        allTools.get(60, java.util.concurrent.TimeUnit.SECONDS);
        for (Thread th : pressure) {
            th.join(35_000);
        }
        int toolsLimited = 0;
        for (var f : tools) {
            HttpResponse<String> r = f.get();
            assertThat(r.statusCode()).as("MCP transport answer: %s", r.body()).isEqualTo(200);
            if (r.body().contains("\"status\":429")) {
                assertThat(r.body()).contains("\"isError\":true").contains("rate_limited");
                toolsLimited++;
            }
        }
        assertThat(restLimited + pressed.get()).as("REST reads refused beyond the burst").isPositive();
        assertThat(toolsLimited).as("tool calls from the same address refused by mandate-service's limit (of %d)", tools.size())
                .isPositive();
        // another address is served
        HttpResponse<String> other = http.send(mcp.apply("198.18.45." + (1 + (int) (Math.random() * 250))),
                HttpResponse.BodyHandlers.ofString());
        assertThat(other.body()).as(other.body()).doesNotContain("\"status\":429").contains("mandate_not_found");
    }
}
