package dev.agentpay.commons.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.http.HttpServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@link JsonRpcHttp#call} against a real HTTP server whose answer each test picks: the JSON-RPC envelope
 * sent, the {@code result} handed on, and every failure (JSON-RPC error, HTTP status, no JSON) a
 * {@link JsonRpcException} naming the method.
 */
class JsonRpcHttpCallTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static Vertx vertx;
    private static HttpServer server;
    private static volatile int status;
    private static volatile String answer;
    private static final List<JsonNode> requests = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(req -> req.body().subscribe().with(body -> {
            try {
                requests.add(JSON.readTree(body.getBytes()));
            } catch (java.io.IOException e) {
                requests.add(JSON.createObjectNode().put("unreadable", body.toString()));
            }
            req.response().setStatusCode(status).putHeader("content-type", "application/json").endAndForget(answer);
        })).listenAndAwait(0, "127.0.0.1");
    }

    @AfterAll
    static void stop() {
        server.closeAndAwait();
        vertx.closeAndAwait();
    }

    private static JsonRpcHttp http() {
        return new JsonRpcHttp(vertx, "http://127.0.0.1:" + server.actualPort() + "/rpc?key=k", Duration.ofSeconds(5), "test");
    }

    @Test
    void sendsTheEnvelopeAndEmitsTheResult() {
        status = 200;
        answer = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"value\":42}}";
        requests.clear();
        try (JsonRpcHttp http = http()) {
            JsonNode result = http.call("getSlot", JSON.createArrayNode().add("finalized")).await().atMost(Duration.ofSeconds(5));
            assertThat(result.path("value").asInt()).isEqualTo(42);
            http.call("getSlot", JSON.createArrayNode()).await().atMost(Duration.ofSeconds(5));
        }
        assertThat(requests).hasSize(2);
        JsonNode first = requests.get(0);
        assertThat(first.path("jsonrpc").asText()).isEqualTo("2.0");
        assertThat(first.path("method").asText()).isEqualTo("getSlot");
        assertThat(first.path("params").get(0).asText()).isEqualTo("finalized");
        assertThat(requests.get(1).path("id").asLong()).isNotEqualTo(first.path("id").asLong());
    }

    @Test
    void aJsonRpcErrorIsAJsonRpcExceptionCarryingIt() {
        status = 200;
        answer = "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32005,\"message\":\"range too large\"}}";
        try (JsonRpcHttp http = http()) {
            assertThatThrownBy(() -> http.call("eth_getLogs", JSON.createArrayNode()).await().atMost(Duration.ofSeconds(5)))
                    .isInstanceOfSatisfying(JsonRpcException.class, e -> {
                        assertThat(e.method()).isEqualTo("eth_getLogs");
                        assertThat(e.error()).get().extracting(n -> n.path("code").asInt()).isEqualTo(-32005);
                        assertThat(e).hasMessageStartingWith("eth_getLogs: ").hasMessageContaining("range too large");
                    });
        }
    }

    @Test
    void anHttpErrorOrAnAnswerThatIsNoJsonIsATransportFailure() {
        try (JsonRpcHttp http = http()) {
            status = 503;
            answer = "{}";
            assertThatThrownBy(() -> http.call("getSlot", JSON.createArrayNode()).await().atMost(Duration.ofSeconds(5)))
                    .isInstanceOfSatisfying(JsonRpcException.class, e -> assertThat(e.error()).isEmpty())
                    .hasMessage("getSlot: HTTP 503");
            status = 200;
            answer = "<html>";
            assertThatThrownBy(() -> http.call("getSlot", JSON.createArrayNode()).await().atMost(Duration.ofSeconds(5)))
                    .isInstanceOfSatisfying(JsonRpcException.class, e -> assertThat(e.error()).isEmpty())
                    .hasMessageStartingWith("getSlot: ");
        }
    }
}
