package dev.agentpay.bench.atrr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The harness's only way out: java.net.http with every exchange written to the raw log (credentials
 * redacted: API keys, the admin key and payment proofs never reach the log).
 */
final class RecordingHttp {

    private static final Set<String> SECRET_HEADERS = Set.of("x-api-key", "x-admin-key", "x-payment");
    private static final Set<String> SECRET_FIELDS = Set.of("api_key", "x_payment", "signature", "raw_logs");
    private static final int MAX_BODY_LOGGED = 4000;

    /** One HTTP answer. */
    record Answer(int status, JsonNode json, String text, long millis, String retryAfter) {
    }

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper mapper;
    private final List<ObjectNode> log = Collections.synchronizedList(new ArrayList<>());
    private volatile String task = "discovery";

    RecordingHttp(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    void task(String name) {
        this.task = name;
    }

    List<ObjectNode> log() {
        return List.copyOf(log);
    }

    Answer get(String url, Map<String, String> headers) {
        return exchange("GET", url, headers, null);
    }

    Answer post(String url, Map<String, String> headers, JsonNode body) {
        return exchange("POST", url, headers, body);
    }

    /** As a polite agent: a 429 is retried after its {@code Retry-After} (at most 5 s, three times); each try is logged. */
    private Answer exchange(String method, String url, Map<String, String> headers, JsonNode body) {
        Answer a = once(method, url, headers, body);
        for (int retry = 0; retry < 3 && a.status() == 429; retry++) {
            long wait = 1;
            try {
                wait = Math.min(5, Math.max(1, Long.parseLong(a.retryAfter())));
            } catch (NumberFormatException e) {
                // no or odd header: one second
            }
            try {
                Thread.sleep(wait * 1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return a;
            }
            a = once(method, url, headers, body);
        }
        return a;
    }

    private Answer once(String method, String url, Map<String, String> headers, JsonNode body) {
        ObjectNode entry = mapper.createObjectNode();
        entry.put("ts", Instant.now().toString());
        entry.put("task", task);
        entry.put("method", method);
        entry.put("url", url);
        ObjectNode h = entry.putObject("request_headers");
        headers.forEach((k, v) -> h.put(k, SECRET_HEADERS.contains(k.toLowerCase()) ? "<redacted>" : v));
        if (body != null) {
            entry.set("request_body", redact(body.deepCopy()));
        }
        long t0 = System.nanoTime();
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
            headers.forEach(b::header);
            if (body != null) {
                b.header("content-type", "application/json");
                b.method(method, HttpRequest.BodyPublishers.ofString(mapper.writeValueAsString(body)));
            } else {
                b.method(method, HttpRequest.BodyPublishers.noBody());
            }
            HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
            long ms = (System.nanoTime() - t0) / 1_000_000;
            JsonNode json = null;
            try {
                json = r.body().isEmpty() ? null : mapper.readTree(r.body());
            } catch (IOException e) {
                json = null;
            }
            entry.put("status", r.statusCode());
            entry.put("millis", ms);
            if (json != null) {
                entry.set("response_body", truncate(redact(json.deepCopy())));
            } else {
                entry.put("response_text", r.body().length() > MAX_BODY_LOGGED ? r.body().substring(0, MAX_BODY_LOGGED) : r.body());
            }
            log.add(entry);
            return new Answer(r.statusCode(), json, r.body(), ms, r.headers().firstValue("retry-after").orElse(""));
        } catch (IOException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            entry.put("status", 0);
            entry.put("transport_error", e.getClass().getSimpleName() + ": " + e.getMessage());
            log.add(entry);
            return new Answer(0, null, "", (System.nanoTime() - t0) / 1_000_000, "");
        }
    }

    private JsonNode truncate(JsonNode n) {
        String s = n.toString();
        return s.length() <= MAX_BODY_LOGGED ? n : mapper.getNodeFactory().textNode(s.substring(0, MAX_BODY_LOGGED) + "...");
    }

    private static JsonNode redact(JsonNode n) {
        if (n instanceof ObjectNode o) {
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            for (String f : names) {
                if (SECRET_FIELDS.contains(f)) {
                    o.put(f, "<redacted>");
                } else {
                    redact(o.get(f));
                }
            }
        } else if (n != null && n.isArray()) {
            n.forEach(RecordingHttp::redact);
        }
        return n;
    }
}
