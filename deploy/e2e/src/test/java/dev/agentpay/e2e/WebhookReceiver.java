package dev.agentpay.e2e;

import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A partner's webhook endpoint inside the test JVM: records every delivery it receives (path,
 * {@code webhook-id}, attempt, answer) and can be taken down (port closed) and brought back on the
 * same port. A small share of deliveries is answered 500 so retries happen without an outage too.
 */
final class WebhookReceiver {

    /** One delivery as received. */
    record Delivery(long atMs, String path, String webhookId, int attempt, int answered) {
    }

    private final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
    private final double failShare;
    private volatile HttpServer server;
    private final int port;

    private final java.util.Random random;

    WebhookReceiver(int port, double failShare, java.util.Random random) {
        this.port = port;
        this.failShare = failShare;
        this.random = random;
    }

    /** Listens on the port again (retried while the port from a previous {@link #stop()} is still held). */
    synchronized void start() {
        server = await("webhook receiver listening on " + port).atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(100)).ignoreExceptionsInstanceOf(BindException.class).until(this::listen, s -> s != null);
    }

    private HttpServer listen() throws IOException {
        HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 64);
        s.setExecutor(Executors.newFixedThreadPool(8));
        s.createContext("/", ex -> {
            ex.getRequestBody().readAllBytes();
            String id = ex.getRequestHeaders().getFirst("webhook-id");
            String attempt = ex.getRequestHeaders().getFirst("X-Service-Attempt");
            // Only first attempts fail on purpose, so a delivery meets at most one deliberate failure.
            int code = (attempt == null || attempt.equals("1")) && random.nextDouble() < failShare ? 500 : 200;
            deliveries.add(new Delivery(System.currentTimeMillis(), ex.getRequestURI().getPath(), id,
                    attempt == null ? 0 : Integer.parseInt(attempt), code));
            ex.sendResponseHeaders(code, -1);
            ex.close();
        });
        s.start();
        return s;
    }

    /** Closes the port: deliveries meet a refused connection. */
    synchronized void stop() {
        HttpServer s = server;
        server = null;
        if (s != null) {
            s.stop(0);
            ((java.util.concurrent.ExecutorService) s.getExecutor()).shutdownNow();
        }
    }

    String url(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    List<Delivery> deliveries() {
        return List.copyOf(deliveries);
    }
}
