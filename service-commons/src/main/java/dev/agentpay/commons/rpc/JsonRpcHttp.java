package dev.agentpay.commons.rpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.ext.web.client.WebClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * JSON-RPC over HTTP POST on Vert.x's non-blocking web client: the one transport of every chain client
 * (settlement-watcher's {@code EvmClient}, {@code SolanaClient} and {@code SweepChainClient}; invoice-service's
 * {@code ChainRpcClient} and {@code SolanaRpcClient}). No thread waits for an answer; each call is bounded by
 * the timeout as a whole (connect, send, answer). A large answer (a catch-up's {@code eth_getLogs}) is handed
 * on on a worker thread, so decoding it never holds an event loop.
 *
 * <p>Two levels: {@link #post} carries bytes a caller encoded itself (web3j's requests) and fails with plain
 * transport failures ({@link IOException}, {@link TimeoutException}); {@link #call} writes and reads the
 * JSON-RPC envelope with Jackson and fails with {@link JsonRpcException} (transport or JSON-RPC error). Each
 * client turns either into its own exception type and keeps its own retry policy.
 */
public final class JsonRpcHttp implements AutoCloseable {

    /** Answers above this size are decoded off the event loop. */
    private static final int LARGE = 256 * 1024;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final WebClient web;
    private final URI uri;
    private final int port;
    private final String path;
    private final boolean ssl;
    private final Duration timeout;
    private final AtomicLong ids = new AtomicLong();

    /** Connecting is bounded by the call's {@code timeout} too. */
    public JsonRpcHttp(Vertx vertx, String url, Duration timeout, String userAgent) {
        this(vertx, url, timeout, timeout, userAgent);
    }

    /** {@code userAgent} {@code null}: Vert.x's own. */
    public JsonRpcHttp(Vertx vertx, String url, Duration connectTimeout, Duration timeout, String userAgent) {
        this.uri = URI.create(url);
        this.ssl = "https".equalsIgnoreCase(uri.getScheme());
        this.port = uri.getPort() > 0 ? uri.getPort() : (ssl ? 443 : 80);
        String p = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        this.path = uri.getRawQuery() == null ? p : p + "?" + uri.getRawQuery();
        this.timeout = timeout;
        WebClientOptions options = new WebClientOptions()
                .setConnectTimeout((int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()))
                .setKeepAlive(true)
                .setMaxPoolSize(4);
        this.web = WebClient.create(vertx, userAgent == null ? options : options.setUserAgent(userAgent));
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

    /**
     * One JSON-RPC 2.0 call: emits the answer's {@code result} (a JSON null when the method found nothing),
     * or fails with a {@link JsonRpcException} for a transport failure, an answer that is not JSON, or a
     * JSON-RPC {@code error}.
     */
    public Uni<JsonNode> call(String method, JsonNode params) {
        ObjectNode request = JSON.createObjectNode().put("jsonrpc", "2.0").put("id", ids.incrementAndGet()).put("method", method);
        request.set("params", params);
        return Uni.createFrom().item(() -> write(request))
                .flatMap(this::post)
                .map(JsonRpcHttp::read)
                .onFailure().transform(e -> new JsonRpcException(method, describe(e), null, e))
                .map(answer -> {
                    if (answer.hasNonNull("error")) {
                        throw new JsonRpcException(method, answer.get("error").toString(), answer.get("error"), null);
                    }
                    return answer.path("result");
                });
    }

    private static byte[] write(JsonNode node) {
        try {
            return JSON.writeValueAsBytes(node);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static JsonNode read(byte[] body) {
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
