package dev.agentpay.webhook.support;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A real HTTP receiver on a free loopback port. Each path has a script of responses (status and
 * headers) consumed one per request, then answers 200. Every request is recorded with its raw body
 * bytes and headers.
 */
public final class TestReceiver implements AutoCloseable {

    /** A recorded request and the status it was answered with. */
    public record Received(String path, Map<String, String> headers, byte[] body, int answered, long receivedAtMillis) {
        public String header(String name) {
            return headers.get(name.toLowerCase());
        }

        public String bodyText() {
            return new String(body, java.nio.charset.StandardCharsets.UTF_8);
        }
    }

    /** A scripted answer. */
    public record Answer(int status, Map<String, String> headers) {
        public static Answer of(int status) {
            return new Answer(status, Map.of());
        }
    }

    static {
        // Without it the JDK server's responses wait for Nagle's algorithm (~40 ms per keep-alive request).
        System.setProperty("sun.net.httpserver.nodelay", "true");
    }

    private static TestReceiver shared;

    private final HttpServer server;
    private final ExecutorService executor;
    private final Map<String, Deque<Answer>> scripts = new ConcurrentHashMap<>();
    private final List<Received> received = new CopyOnWriteArrayList<>();
    /** Optional file receiving "path webhook-id attempt answered" per request (readable after a restart). */
    private volatile java.nio.file.Path logFile;

    /** One receiver per test JVM, so it outlives application restarts. */
    public static synchronized TestReceiver shared() {
        if (shared == null) {
            shared = new TestReceiver();
        }
        return shared;
    }

    public TestReceiver() {
        this(0);
    }

    /** A receiver on a given port (0 = any free port). */
    public TestReceiver(int port) {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 512);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        executor = Executors.newFixedThreadPool(32);
        server.setExecutor(executor);
        server.createContext("/", exchange -> {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            String path = exchange.getRequestURI().getPath();
            Deque<Answer> script = scripts.get(path);
            Answer a = script == null ? null : script.pollFirst();
            int status = a == null ? 200 : a.status();
            Map<String, String> headers = new TreeMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(), String.join(",", v)));
            received.add(new Received(path, headers, body, status, System.currentTimeMillis()));
            if (logFile != null) {
                synchronized (this) {
                    java.nio.file.Files.writeString(logFile, path + " " + headers.get("webhook-id") + " "
                            + headers.get("x-service-attempt") + " " + status + "\n", java.nio.file.StandardOpenOption.APPEND);
                }
            }
            if (a != null) {
                a.headers().forEach((k, v) -> exchange.getResponseHeaders().set(k, v));
            }
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** A URL on this receiver with a fresh path. */
    public String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    public void script(String path, Answer... answers) {
        Deque<Answer> d = new ConcurrentLinkedDeque<>(List.of(answers));
        scripts.put(path, d);
    }

    public List<Received> at(String path) {
        List<Received> out = new ArrayList<>();
        for (Received r : received) {
            if (r.path().equals(path)) {
                out.add(r);
            }
        }
        return out;
    }

    /** Also appends one line per request to {@code file}, which must exist. */
    public void logTo(java.nio.file.Path file) {
        this.logFile = file;
    }

    public int total() {
        return received.size();
    }

    public List<Received> all() {
        return List.copyOf(received);
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
