package dev.agentpay.localstack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The gateway in front of several instances of a service ({@code --replicas N}): round robin over the
 * ready ones, an instance that refuses connections out at once and the request sent to another (a POST
 * too: nothing reached the refusing one), a draining instance (readiness 503) out at the next check, and a
 * POST that failed after it reached an instance never sent to a second one. And the services' own balanced
 * ports ({@link ServiceProxies}), which forward the internal paths the gateway does not route.
 */
class GatewayBalancingTest {

    /** A fake service instance: answers its name; readiness 200 or 503; can drop requests after reading them. */
    static final class Instance {
        final String name;
        final HttpServer server;
        final AtomicInteger requests = new AtomicInteger();
        volatile int readiness = 200;
        volatile boolean dropAfterReading;
        /** While set, a request is read and then left unanswered until the latch opens (a frozen instance). */
        volatile java.util.concurrent.CountDownLatch silentUntil;

        Instance(String name) throws IOException {
            this.name = name;
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/q/health/ready", ex -> {
                ex.sendResponseHeaders(readiness, -1);
                ex.close();
            });
            server.createContext("/", ex -> {
                try (InputStream in = ex.getRequestBody()) {
                    in.readAllBytes();
                }
                requests.incrementAndGet();
                if (dropAfterReading) { // the service acted on it, then its connection died
                    ex.close();
                    return;
                }
                java.util.concurrent.CountDownLatch silent = silentUntil;
                if (silent != null) {
                    try {
                        silent.await(60, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                byte[] body = name.getBytes(StandardCharsets.UTF_8);
                ex.sendResponseHeaders(200, body.length);
                try (OutputStream out = ex.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
        }

        int port() {
            return server.getAddress().getPort();
        }
    }

    private final List<Instance> instances = new ArrayList<>();
    private Gateway gateway;
    private ServiceProxies proxies;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
        if (proxies != null) {
            proxies.close();
        }
        instances.forEach(i -> {
            if (i.silentUntil != null) {
                i.silentUntil.countDown();
            }
            i.server.stop(0);
        });
    }

    private void start(int n, List<Integer> extraPorts) throws Exception {
        List<Integer> ports = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            Instance inst = new Instance("i" + i);
            instances.add(inst);
            ports.add(inst.port());
        }
        ports.addAll(extraPorts);
        Map<String, List<Integer>> map = new LinkedHashMap<>();
        map.put("mandate-service", ports);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        gateway = Gateway.startBalanced(port, List.of(new Gateway.Route("/v1/mandates", "mandate-service")), map,
                new GatewayClientGuard.Limits(5_000, 5_000, 10_000, 100));
    }

    private HttpResponse<String> send(String method) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/v1/mandates/x"))
                .timeout(Duration.ofSeconds(10));
        b = method.equals("POST") ? b.POST(HttpRequest.BodyPublishers.ofString("{}")) : b.GET();
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void roundRobinOverTheReadyInstances() throws Exception {
        start(3, List.of());
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            seen.add(send("GET").body());
        }
        assertThat(seen).containsOnly("i1", "i2", "i3");
        assertThat(instances).allSatisfy(i -> assertThat(i.requests.get()).isEqualTo(2));
    }

    @Test
    void aRefusedConnectionIsRetriedOnAnotherInstanceEvenForAPostAndTheInstanceIsTakenOut() throws Exception {
        int dead;
        try (ServerSocket s = new ServerSocket(0)) {
            dead = s.getLocalPort(); // closed: connections are refused
        }
        start(1, List.of(dead));
        for (int i = 0; i < 4; i++) {
            HttpResponse<String> r = send(i % 2 == 0 ? "POST" : "GET");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.body()).isEqualTo("i1");
        }
        assertThat(instances.get(0).requests.get()).isEqualTo(4);
    }

    @Test
    void aDrainingInstanceIsTakenOutAtTheNextReadinessCheck() throws Exception {
        start(2, List.of());
        instances.get(1).readiness = 503;
        await("i2 out of rotation").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100)).until(() -> {
            int before = instances.get(1).requests.get();
            for (int i = 0; i < 4; i++) {
                send("GET");
            }
            return instances.get(1).requests.get() == before;
        });
        instances.get(1).readiness = 200;
        await("i2 back").atMost(Duration.ofSeconds(5)).until(() -> {
            send("GET");
            return send("GET").body().equals("i2") || send("GET").body().equals("i2");
        });
    }

    @Test
    void aPostThatReachedAnInstanceIsNeverSentToAnother() throws Exception {
        start(2, List.of());
        instances.forEach(i -> i.dropAfterReading = true);
        HttpResponse<String> r = send("POST");
        assertThat(r.statusCode()).isEqualTo(502);
        assertThat(instances.stream().mapToInt(i -> i.requests.get()).sum()).isEqualTo(1);
        // the error envelope, not the proxy's empty 502
        assertUpstreamError(r, "upstream_unavailable");
    }

    @Test
    void anInstanceThatStaysSilentIsAnswered504WithTheEnvelopeAtTheBackendTimeout() throws Exception {
        start(1, List.of());
        instances.get(0).silentUntil = new java.util.concurrent.CountDownLatch(1);
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/v1/mandates/x"))
                .timeout(Duration.ofMillis(Gateway.BACKEND_IDLE_TIMEOUT_MS + 15_000)).POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(504);
        assertThat(instances.get(0).requests.get()).as("it reached the instance").isEqualTo(1);
        assertUpstreamError(r, "upstream_timeout");
    }

    private static void assertUpstreamError(HttpResponse<String> r, String code) throws IOException {
        assertThat(r.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(r.headers().firstValue("retry-after")).hasValue("1");
        com.fasterxml.jackson.databind.JsonNode body = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.body());
        assertThat(body.path("success").asBoolean(true)).isFalse();
        assertThat(body.at("/error/code").asText()).isEqualTo(code);
        assertThat(body.at("/error/message").asText()).contains("may have taken effect");
    }

    @Test
    void servicesReachEachOtherThroughABalancedPortThatForwardsEveryPathTheGatewayDoesNotRoute() throws Exception {
        start(2, List.of());
        int dead;
        int listen;
        try (ServerSocket s = new ServerSocket(0); ServerSocket l = new ServerSocket(0)) {
            dead = s.getLocalPort(); // closed: connections are refused
            listen = l.getLocalPort();
        }
        proxies = ServiceProxies.start(Map.of("invoice-service", listen),
                Map.of("invoice-service", List.of(instances.get(0).port(), dead, instances.get(1).port())));
        String url = proxies.url("invoice-service") + "/admin/charges/c1/invoice";
        List<String> seen = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                    .PUT(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as("an internal path, through the service's port").isEqualTo(200);
            seen.add(r.body());
        }
        assertThat(seen).containsOnly("i1", "i2").contains("i1", "i2");
        // the public gateway does not route it
        assertThat(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/admin/charges/c1/invoice"))
                .timeout(Duration.ofSeconds(10)).PUT(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
    }
}
