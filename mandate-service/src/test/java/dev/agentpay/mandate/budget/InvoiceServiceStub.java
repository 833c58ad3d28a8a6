package dev.agentpay.mandate.budget;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * invoice-service's {@code PUT /admin/charges/{id}/invoice} as mandate-service's tests need it: idempotent by the
 * charge id like the real one, and steerable by the request: chain {@code polygon} is refused (400
 * {@code chain_not_configured}); a description starting with {@code flaky} fails the first call of each charge with
 * a 503. {@code GET /_state} answers {@code {"<charge id>": invoice id}} and {@code calls}.
 */
public class InvoiceServiceStub implements QuarkusTestResourceLifecycleManager {

    private static final ObjectMapper JSON = new ObjectMapper();
    private HttpServer server;
    private final Map<String, ObjectNode> invoices = new ConcurrentHashMap<>();
    private final Map<String, Boolean> failedOnce = new ConcurrentHashMap<>();
    private final AtomicInteger calls = new AtomicInteger();

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        server.createContext("/", this::handle);
        server.setExecutor(java.util.concurrent.Executors.newFixedThreadPool(8));
        server.start();
        return Map.of("budget.invoice-service-url", "http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    private void handle(HttpExchange x) throws IOException {
        try (x) {
            String path = x.getRequestURI().getPath();
            if ("GET".equals(x.getRequestMethod()) && path.equals("/_state")) {
                ObjectNode state = JSON.createObjectNode();
                ObjectNode byCharge = state.putObject("invoices");
                invoices.forEach((charge, inv) -> byCharge.put(charge, inv.path("id").asText()));
                state.put("calls", calls.get());
                reply(x, 200, state.toString());
                return;
            }
            if (!"PUT".equals(x.getRequestMethod()) || !path.startsWith("/admin/charges/") || !path.endsWith("/invoice")) {
                reply(x, 404, "{\"success\":false,\"error\":{\"code\":\"not_found\",\"message\":\"stub\"}}");
                return;
            }
            if (!"test-admin-key".equals(x.getRequestHeaders().getFirst("x-admin-key"))) {
                reply(x, 401, "{\"success\":false,\"error\":{\"code\":\"unauthorized\",\"message\":\"stub\"}}");
                return;
            }
            calls.incrementAndGet();
            String chargeId = path.substring("/admin/charges/".length(), path.length() - "/invoice".length());
            JsonNode body = JSON.readTree(new String(x.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            ObjectNode existing = invoices.get(chargeId);
            if (existing != null) {
                reply(x, 200, envelope(existing));
                return;
            }
            if ("polygon".equals(body.path("chain").asText())) {
                reply(x, 400, "{\"success\":false,\"error\":{\"code\":\"chain_not_configured\",\"message\":\"chain: polygon has no "
                        + "seller wallet or deposit factory configured on this deployment\"}}");
                return;
            }
            if (body.path("description").asText("").startsWith("flaky") && failedOnce.putIfAbsent(chargeId, true) == null) {
                reply(x, 503, "{\"success\":false,\"error\":{\"code\":\"unavailable\",\"message\":\"stub\"}}");
                return;
            }
            ObjectNode inv = JSON.createObjectNode();
            inv.put("id", UUID.randomUUID().toString());
            inv.put("status", "PENDING");
            inv.set("amount", body.path("amount"));
            inv.put("currency", "USDC");
            inv.put("mandateId", body.path("mandateId").asText());
            inv.put("chargeId", chargeId);
            inv.put("expiresAt", body.path("expiresAt").asText("2030-01-01T00:00:00Z"));
            ObjectNode pd = inv.putObject("paymentDetails");
            pd.put("chain", body.path("chain").asText());
            pd.put("paymentAddress", "0x" + "ab".repeat(20));
            pd.set("payableAmount", body.path("amount"));
            ObjectNode raced = invoices.putIfAbsent(chargeId, inv);
            reply(x, raced == null ? 201 : 200, envelope(raced == null ? inv : raced));
        }
    }

    private static String envelope(JsonNode data) {
        return "{\"success\":true,\"data\":" + data + "}";
    }

    private static void reply(HttpExchange x, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        x.getResponseHeaders().set("content-type", "application/json");
        x.sendResponseHeaders(status, bytes.length);
        x.getResponseBody().write(bytes);
    }
}
