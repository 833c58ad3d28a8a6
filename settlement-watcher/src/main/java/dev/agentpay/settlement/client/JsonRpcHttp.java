package dev.agentpay.settlement.client;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.ext.web.client.WebClient;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * JSON-RPC over HTTP POST on Vert.x's non-blocking web client: the one transport of the watcher's chain
 * clients ({@link EvmClient}, {@link SolanaClient}, the sweeper's {@code SweepChainClient}). No thread waits
 * for an answer; each call is bounded by the client's timeout as a whole (connect, send, answer). A large
 * answer (a catch-up's {@code eth_getLogs}) is handed on on a worker thread, so decoding it never holds
 * an event loop. Failures are plain transport failures ({@link IOException}, {@link TimeoutException});
 * each client turns them into its own exception type.
 */
public final class JsonRpcHttp implements AutoCloseable {

    /** Answers above this size are decoded off the event loop. */
    private static final int LARGE = 256 * 1024;

    private final WebClient web;
    private final URI uri;
    private final int port;
    private final String path;
    private final boolean ssl;
    private final Duration timeout;

    public JsonRpcHttp(Vertx vertx, String url, Duration timeout) {
        this.uri = URI.create(url);
        this.ssl = "https".equalsIgnoreCase(uri.getScheme());
        this.port = uri.getPort() > 0 ? uri.getPort() : (ssl ? 443 : 80);
        String p = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        this.path = uri.getRawQuery() == null ? p : p + "?" + uri.getRawQuery();
        this.timeout = timeout;
        this.web = WebClient.create(vertx, new WebClientOptions()
                .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()))
                .setKeepAlive(true)
                .setMaxPoolSize(4)
                .setUserAgent("agentpay-settlement-watcher"));
    }

    /** Posts one JSON-RPC request body; emits the answer's bytes (HTTP 2xx) or fails with a transport failure. */
    public Uni<byte[]> post(byte[] request) {
        return web.post(port, uri.getHost(), path).ssl(ssl)
                .timeout(timeout.toMillis())
                .putHeader("content-type", "application/json")
                .sendBuffer(Buffer.buffer(request))
                .ifNoItem().after(timeout).failWith(() -> new TimeoutException("no answer within " + timeout))
                .flatMap(res -> {
                    if (res.statusCode() / 100 != 2) {
                        return Uni.createFrom().failure(new IOException("HTTP " + res.statusCode()));
                    }
                    Buffer body = res.body();
                    byte[] bytes = body == null ? new byte[0] : body.getBytes();
                    Uni<byte[]> out = Uni.createFrom().item(bytes);
                    return bytes.length > LARGE ? out.emitOn(Infrastructure.getDefaultWorkerPool()) : out;
                });
    }

    /** A failure's message for logs and the clients' exceptions (its type when it has none). */
    public static String describe(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }

    /** Where requests go (for messages). */
    public String url() {
        return uri.toString();
    }

    @Override
    public void close() {
        web.close();
    }
}
