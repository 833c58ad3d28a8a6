package dev.agentpay.e2e;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Every request the load makes through the gateway, timed and recorded with its answer, so the
 * checks can count hangs (no answer within {@link #TIMEOUT}) and 5xx answers and place them in time.
 */
final class Calls {

    static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** One request: its operation name, when it ran, and its status (0 = no HTTP answer). */
    record Call(String op, long startMs, long endMs, int status, String error) {
    }

    /** An answer; {@code status} 0 when the request failed without one. */
    record Answer(int status, String body, Map<String, List<String>> headers) {
        boolean ok() {
            return status / 100 == 2;
        }

        /** Worth retrying: no answer, a 5xx, a rate limit or a concurrent use of an idempotency key. */
        boolean transientFailure() {
            return status == 0 || status >= 500 || status == 429 || (status == 409 && body.contains("idempotency_key_in_use"));
        }
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final String baseUrl;
    private final String apiKey;

    Calls(String baseUrl, String apiKey) {
        this.baseUrl = baseUrl;
        this.apiKey = apiKey;
    }

    Answer send(String op, String method, String path, String jsonBody, Map<String, String> headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(TIMEOUT)
                .header("x-api-key", apiKey).header("accept", "application/json");
        headers.forEach(b::header);
        if (jsonBody != null) {
            b.header("content-type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(jsonBody));
        } else {
            b.method(method, HttpRequest.BodyPublishers.noBody());
        }
        long t0 = System.currentTimeMillis();
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            calls.add(new Call(op, t0, System.currentTimeMillis(), r.statusCode(), null));
            return new Answer(r.statusCode(), r.body(), r.headers().map());
        } catch (HttpTimeoutException e) {
            calls.add(new Call(op, t0, System.currentTimeMillis(), 0, "timeout"));
            return new Answer(0, "", Map.of());
        } catch (IOException e) {
            calls.add(new Call(op, t0, System.currentTimeMillis(), 0, e.getClass().getSimpleName() + ": " + e.getMessage()));
            return new Answer(0, "", Map.of());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Answer(0, "", Map.of());
        }
    }

    /**
     * Sends until a non-transient answer or until {@code patience} has passed (as a client with retries
     * would); the same request each time, so only idempotent requests (GET, or POST with an
     * {@code Idempotency-Key}) should rely on it.
     */
    Answer retrying(String op, String method, String path, String jsonBody, Map<String, String> headers, Duration patience) {
        long deadline = System.nanoTime() + patience.toNanos();
        long backoff = 250;
        while (true) {
            Answer a = send(op, method, path, jsonBody, headers);
            if (!a.transientFailure() || System.nanoTime() > deadline || Thread.currentThread().isInterrupted()) {
                return a;
            }
            sleep(backoff);
            backoff = Math.min(2000, backoff * 2);
        }
    }

    List<Call> calls() {
        return List.copyOf(calls);
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
