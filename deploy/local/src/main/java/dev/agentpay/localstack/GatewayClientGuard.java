package dev.agentpay.localstack;

import dev.agentpay.commons.error.ErrorBody;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one client may hold of the local gateway, as the Ingress it stands in for bounds it: the request
 * line and headers must arrive within {@code headerTimeoutMs} of the connection opening (within
 * {@code keepAliveTimeoutMs} of the previous answer on a kept-alive connection: a shorter deadline there
 * would close idle pooled connections under clients about to reuse them); a request's body must have arrived within {@code bodyTimeoutMs} of its headers
 * (a slow client otherwise holds a service connection for as long as it likes: slowloris); and one
 * client address holds at most {@code maxConnectionsPerClient} connections at once. A connection past
 * a deadline is closed (after a 408 when nothing was answered yet); one over the cap is closed at once.
 * The gateway reads a body whole before it takes a connection to the service ({@link Gateway}), so the
 * body deadline, not the service, is what a slow body meets.
 */
final class GatewayClientGuard {

    /**
     * The limits; environment {@code GATEWAY_HEADER_TIMEOUT_MS}, {@code GATEWAY_BODY_TIMEOUT_MS},
     * {@code GATEWAY_KEEP_ALIVE_TIMEOUT_MS}, {@code GATEWAY_MAX_CONNECTIONS_PER_CLIENT},
     * {@code GATEWAY_MAX_BODY_BYTES} and {@code GATEWAY_TRUSTED_PROXIES} (comma-separated IP literals or
     * CIDR blocks whose {@code X-Forwarded-For} the gateway keeps; default none: a client's own header is
     * replaced by its address). The body deadline must be shorter than the gateway's backend timeout
     * ({@link Gateway#BACKEND_IDLE_TIMEOUT_MS}), so a slow body is answered {@code 408} by the gateway and
     * never held against a service.
     */
    record Limits(long headerTimeoutMs, long bodyTimeoutMs, long keepAliveTimeoutMs, int maxConnectionsPerClient,
            long maxBodyBytes, List<String> trustedProxies) {

        /** The largest body any route takes (discovery-service's benchmark publish: 8 MiB). */
        static final long DEFAULT_MAX_BODY_BYTES = 8L * 1024 * 1024;

        Limits {
            if (bodyTimeoutMs >= Gateway.BACKEND_IDLE_TIMEOUT_MS) {
                throw new IllegalArgumentException("GATEWAY_BODY_TIMEOUT_MS (" + bodyTimeoutMs
                        + ") must be shorter than the backend timeout (" + Gateway.BACKEND_IDLE_TIMEOUT_MS + " ms)");
            }
            trustedProxies = List.copyOf(trustedProxies);
        }

        Limits(long headerTimeoutMs, long bodyTimeoutMs, long keepAliveTimeoutMs, int maxConnectionsPerClient) {
            this(headerTimeoutMs, bodyTimeoutMs, keepAliveTimeoutMs, maxConnectionsPerClient, DEFAULT_MAX_BODY_BYTES, List.of());
        }

        Limits withTrustedProxies(List<String> proxies) {
            return new Limits(headerTimeoutMs, bodyTimeoutMs, keepAliveTimeoutMs, maxConnectionsPerClient, maxBodyBytes, proxies);
        }

        static Limits fromEnvironment() {
            String proxies = System.getenv("GATEWAY_TRUSTED_PROXIES");
            return new Limits(env("GATEWAY_HEADER_TIMEOUT_MS", 10_000), env("GATEWAY_BODY_TIMEOUT_MS", 10_000),
                    env("GATEWAY_KEEP_ALIVE_TIMEOUT_MS", 120_000), (int) env("GATEWAY_MAX_CONNECTIONS_PER_CLIENT", 1024),
                    env("GATEWAY_MAX_BODY_BYTES", DEFAULT_MAX_BODY_BYTES),
                    proxies == null || proxies.isBlank() ? List.of() : List.of(proxies.split(",")));
        }

        private static long env(String name, long fallback) {
            String v = System.getenv(name);
            return v == null || v.isBlank() ? fallback : Long.parseLong(v.trim());
        }
    }

    static final String TIMEOUT_BODY = ErrorBody.json("request_timeout", "the request did not arrive in time");

    private final Vertx vertx;
    private final Limits limits;
    private final Map<String, AtomicInteger> open = new ConcurrentHashMap<>();
    private final Map<HttpConnection, Long> headerTimers = new ConcurrentHashMap<>();

    GatewayClientGuard(Vertx vertx, Limits limits) {
        this.vertx = vertx;
        this.limits = limits;
    }

    void opened(HttpConnection conn) {
        String client = conn.remoteAddress() == null ? "unknown" : conn.remoteAddress().hostAddress();
        AtomicInteger count = open.computeIfAbsent(client, k -> new AtomicInteger());
        int now = count.incrementAndGet();
        conn.closeHandler(v -> {
            cancelHeaderTimer(conn);
            if (count.decrementAndGet() <= 0) {
                open.remove(client, count);
            }
        });
        if (now > limits.maxConnectionsPerClient()) {
            conn.close();
            return;
        }
        awaitHeaders(conn, limits.headerTimeoutMs());
    }

    private void awaitHeaders(HttpConnection conn, long timeoutMs) {
        Long previous = headerTimers.put(conn, vertx.setTimer(timeoutMs, id -> {
            headerTimers.remove(conn);
            conn.close();
        }));
        if (previous != null) {
            vertx.cancelTimer(previous);
        }
    }

    private void cancelHeaderTimer(HttpConnection conn) {
        Long t = headerTimers.remove(conn);
        if (t != null) {
            vertx.cancelTimer(t);
        }
    }

    void requestStarted(HttpServerRequest req) {
        HttpConnection conn = req.connection();
        cancelHeaderTimer(conn);
        long bodyTimer = vertx.setTimer(limits.bodyTimeoutMs(), id -> {
            if (!req.isEnded()) {
                if (!req.response().headWritten() && !req.response().ended()) {
                    req.response().setStatusCode(408).putHeader("content-type", "application/json")
                            .putHeader("connection", "close").end(TIMEOUT_BODY);
                }
                conn.close();
            }
        });
        req.response().endHandler(v -> {
            vertx.cancelTimer(bodyTimer);
            awaitHeaders(conn, limits.keepAliveTimeoutMs());
        });
        req.response().closeHandler(v -> vertx.cancelTimer(bodyTimer));
    }

    int openConnections(String client) {
        AtomicInteger c = open.get(client);
        return c == null ? 0 : c.get();
    }
}
