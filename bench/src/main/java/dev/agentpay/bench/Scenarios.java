package dev.agentpay.bench;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** The operations each scenario measures, as asynchronous calls against the running stack. */
final class Scenarios {

    private static final DateTimeFormatter ISO_MILLIS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    private final WebClient client;
    private final Map<String, String> env;
    private final URI base;

    Scenarios(WebClient client, Map<String, String> env) {
        this.client = client;
        this.env = env;
        this.base = URI.create(require("BASE_URL"));
    }

    private String require(String key) {
        String v = env.get(key);
        if (v == null || v.isBlank()) {
            throw new IllegalArgumentException(key + " is not set: run the stack (deploy/local/run) or pass --env");
        }
        return v;
    }

    Map<String, Supplier<Future<?>>> ops(String scenario) {
        Map<String, Supplier<Future<?>>> ops = new LinkedHashMap<>();
        switch (scenario) {
            case "gateway-overhead" -> {
                // The same authenticated GET (an unknown mandate: auth, routing and a primary-key lookup).
                String path = "/v1/mandates/mnd_00000000-0000-0000-0000-000000000000";
                URI direct = URI.create(require("MANDATE_SERVICE_URL"));
                ops.put("GET mandate direct", () -> get(direct, path, 404));
                ops.put("GET mandate via gateway", () -> get(base, path, 404));
            }
            case "discovery-get" -> ops.put("GET /.well-known/disco.json", () -> get(base, "/.well-known/disco.json", 200));
            case "create-mandate" -> ops.put("POST /v1/mandates", () -> createMandate().map(id -> id));
            case "signed-mandate" -> ops.put("create+get+sign+sign", this::signedMandate);
            default -> throw new IllegalArgumentException("unknown scenario " + scenario);
        }
        return ops;
    }

    private Future<?> get(URI target, String path, int status) {
        return Bench.expect(client.get(port(target), target.getHost(), path)
                .putHeader("x-api-key", require("API_KEY")).send(), status);
    }

    private static int port(URI u) {
        return u.getPort() > 0 ? u.getPort() : 80;
    }

    private Future<String> createMandate() {
        JsonObject body = new JsonObject()
                .put("proposer", "agent-bench-a")
                .put("counterparty", "agent-bench-b")
                .put("scope", "benchmark work")
                .put("terms", new JsonObject().put("amount", 100).put("currency", "USDC"))
                .put("expiry", ISO_MILLIS.format(Instant.now().plus(1, ChronoUnit.DAYS)));
        return client.post(port(base), base.getHost(), "/v1/mandates")
                .putHeader("x-api-key", require("API_KEY"))
                .sendJsonObject(body)
                .compose(r -> r.statusCode() == 201 || r.statusCode() == 200
                        ? Future.succeededFuture(r.bodyAsJsonObject().getJsonObject("data").getString("mandate_id"))
                        : Future.failedFuture("create: " + r.statusCode() + " " + r.bodyAsString()));
    }

    private Future<?> signedMandate() {
        return createMandate().compose(id -> client.get(port(base), base.getHost(), "/v1/mandates/" + id)
                .putHeader("x-api-key", require("API_KEY")).send()
                .compose(r -> {
                    if (r.statusCode() != 200) {
                        return Future.failedFuture("get: " + r.statusCode());
                    }
                    JsonObject m = r.bodyAsJsonObject().getJsonObject("data");
                    String sig = hmac(canonical(m), require("SIGNING_SECRET"));
                    return sign(id, "proposer", sig).compose(x -> sign(id, "counterparty", sig));
                }));
    }

    private Future<?> sign(String id, String signer, String signature) {
        return Bench.expect(client.post(port(base), base.getHost(), "/v1/mandates/" + id + "/sign")
                .putHeader("x-api-key", require("API_KEY"))
                .sendJsonObject(new JsonObject().put("signer", signer).put("signature", signature)), 200);
    }

    /** Canonical bytes for the benchmark's own simple terms (sorted keys, integers and plain strings). */
    static String canonical(JsonObject m) {
        JsonObject terms = m.getJsonObject("terms");
        StringBuilder t = new StringBuilder("{");
        terms.fieldNames().stream().sorted().forEach(k -> {
            if (t.length() > 1) {
                t.append(',');
            }
            Object v = terms.getValue(k);
            t.append('"').append(k).append("\":").append(v instanceof String ? "\"" + v + "\"" : String.valueOf(v));
        });
        t.append('}');
        return "{\"counterparty_agent_id\":\"" + m.getString("counterparty_agent_id")
                + "\",\"expires_at\":\"" + ISO_MILLIS.format(Instant.parse(m.getString("expires_at")))
                + "\",\"id\":\"" + m.getString("id")
                + "\",\"proposer_agent_id\":\"" + m.getString("proposer_agent_id")
                + "\",\"scope\":\"" + m.getString("scope")
                + "\",\"terms\":" + t + "}";
    }

    static String hmac(String data, String secret) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(data.getBytes(StandardCharsets.UTF_8)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static String newId() {
        return UUID.randomUUID().toString();
    }
}
