package dev.agentpay.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The gateway against a real backend over raw sockets: the client's Host reaches the service, a slow
 * header or body is cut at its deadline, and one address holds a bounded number of connections.
 */
class GatewayClientLimitsTest {

    static HttpServer backend;
    static Gateway gateway;
    static final GatewayClientGuard.Limits LIMITS = new GatewayClientGuard.Limits(1_000, 1_500, 5_000, 5);

    @BeforeAll
    static void start() throws Exception {
        backend = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        backend.createContext("/", ex -> {
            byte[] body;
            try (InputStream in = ex.getRequestBody()) {
                in.readAllBytes();
            }
            body = ("host=" + ex.getRequestHeaders().getFirst("Host")).getBytes(StandardCharsets.UTF_8);
            ex.sendResponseHeaders(200, body.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(body);
            }
        });
        backend.start();
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        gateway = Gateway.start(port, List.of(new Gateway.Route("/v1/mandates", "mandate-service")),
                Map.of("mandate-service", backend.getAddress().getPort()), LIMITS);
    }

    @AfterAll
    static void stop() {
        gateway.close();
        backend.stop(0);
    }

    static Socket connect() throws Exception {
        return connect(gateway);
    }

    static Socket connect(Gateway g) throws Exception {
        Socket s = new Socket("127.0.0.1", g.port());
        s.setSoTimeout(10_000);
        return s;
    }

    static String readAll(Socket s) throws Exception {
        return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    }

    @Test
    void theClientsHostReachesTheService() throws Exception {
        try (Socket s = connect()) {
            s.getOutputStream().write("GET /v1/mandates/x HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            assertThat(readAll(s)).startsWith("HTTP/1.1 200").contains("host=evil.example");
        }
    }

    @Test
    void aSlowHeaderIsCutAtItsDeadline() throws Exception {
        try (Socket s = connect()) {
            long t0 = System.nanoTime();
            s.getOutputStream().write("GET /v1/mandates/x HTTP/1.1\r\nHost: a\r\n".getBytes(StandardCharsets.ISO_8859_1));
            // then nothing: the gateway closes the connection (read returns end of stream) near the deadline
            assertThat(s.getInputStream().read()).isEqualTo(-1);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(ms).isBetween(LIMITS.headerTimeoutMs() - 100, LIMITS.headerTimeoutMs() + 5_000);
        }
    }

    @Test
    void aSlowBodyIsCutAtItsDeadlineWithA408() throws Exception {
        try (Socket s = connect()) {
            long t0 = System.nanoTime();
            OutputStream out = s.getOutputStream();
            out.write("POST /v1/mandates HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            String answer = readAll(s);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertThat(answer).startsWith("HTTP/1.1 408").contains("request_timeout");
            assertThat(ms).isBetween(LIMITS.bodyTimeoutMs() - 100, LIMITS.bodyTimeoutMs() + 5_000);
        }
    }

    @Test
    void oneAddressHoldsABoundedNumberOfConnections() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        // deadlines long enough that no held connection is closed for being idle during the test
        GatewayClientGuard.Limits capOnly = new GatewayClientGuard.Limits(30_000, 15_000, 30_000, 5);
        List<Socket> held = new ArrayList<>();
        try (Gateway g = Gateway.start(port, List.of(new Gateway.Route("/v1/mandates", "mandate-service")),
                Map.of("mandate-service", backend.getAddress().getPort()), capOnly)) {
            for (int i = 0; i <= capOnly.maxConnectionsPerClient(); i++) {
                held.add(connect(g));
            }
            // one over the cap: exactly one of them is closed at once, without an answer (which one depends
            // on the order the event loops accepted them); the others stay open
            List<Socket> open = new ArrayList<>();
            int closed = 0;
            for (Socket s : held) {
                s.setSoTimeout(1_500);
                try {
                    if (s.getInputStream().read() == -1) {
                        closed++;
                    }
                } catch (java.net.SocketTimeoutException stillOpen) {
                    open.add(s);
                }
            }
            assertThat(closed).isEqualTo(1);
            assertThat(open).hasSize(capOnly.maxConnectionsPerClient());
            // the connections within the cap still work
            Socket first = open.get(0);
            first.setSoTimeout(10_000);
            first.getOutputStream().write("GET /v1/mandates/x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            assertThat(readAll(first)).startsWith("HTTP/1.1 200");
        } finally {
            for (Socket s : held) {
                s.close();
            }
        }
    }
}
