package dev.agentpay.settlement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A JSON-RPC pass-through to a real anvil that refuses {@code eth_getLogs} over more than
 * {@code maxRange} blocks, the way hosted providers do, so the watcher's range shrinking is exercised.
 */
final class RangeLimitingProxy implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    final AtomicInteger refused = new AtomicInteger();
    final AtomicInteger served = new AtomicInteger();
    private final HttpServer server;

    RangeLimitingProxy(String upstream, long maxRange) throws IOException {
        HttpClient http = HttpClient.newHttpClient();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", ex -> {
            byte[] body = ex.getRequestBody().readAllBytes();
            JsonNode req = JSON.readTree(body);
            byte[] out;
            if ("eth_getLogs".equals(req.path("method").asText())) {
                JsonNode f = req.path("params").path(0);
                long from = Long.decode(f.path("fromBlock").asText());
                long to = Long.decode(f.path("toBlock").asText());
                if (to - from + 1 > maxRange) {
                    refused.incrementAndGet();
                    out = ("{\"jsonrpc\":\"2.0\",\"id\":" + req.path("id") + ",\"error\":{\"code\":-32005,"
                            + "\"message\":\"query exceeds max block range " + maxRange + "\"}}").getBytes(StandardCharsets.UTF_8);
                    send(ex, out);
                    return;
                }
                served.incrementAndGet();
            }
            try {
                out = http.send(HttpRequest.newBuilder(URI.create(upstream)).header("content-type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray()).body();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
            send(ex, out);
        });
        server.start();
    }

    private static void send(com.sun.net.httpserver.HttpExchange ex, byte[] out) throws IOException {
        ex.getResponseHeaders().add("content-type", "application/json");
        ex.sendResponseHeaders(200, out.length);
        try (OutputStream os = ex.getResponseBody()) {
            os.write(out);
        }
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
