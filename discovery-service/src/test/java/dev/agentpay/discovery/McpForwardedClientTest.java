package dev.agentpay.discovery;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.discovery.testing.UpstreamStub;
import dev.agentpay.discovery.testing.UpstreamStubResource;
import dev.agentpay.localstack.testing.KafkaTestResource;
import dev.agentpay.localstack.testing.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * MCP tools call mandate-service and invoice-service for the MCP caller, naming it in {@code X-Forwarded-For}
 * (issue 33 item 4), so those services limit it by its own address as behind the gateway: MCP and REST share
 * one allowance. An internal caller (a trusted address without the header) is forwarded as nobody.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@WithTestResource(UpstreamStubResource.class)
class McpForwardedClientTest {

    static void queryThroughMcp(String id, String forwardedFor) {
        var req = given().contentType("application/json").accept("application/json, text/event-stream")
                .body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"service_query_mandate\","
                        + "\"arguments\":{\"mandate_id\":\"" + id + "\"}}}");
        if (forwardedFor != null) {
            req.header("X-Forwarded-For", forwardedFor);
        }
        req.post("/disco/mcp").then().statusCode(200);
    }

    static List<String> forwardedSeenFor(UpstreamStub stub, String id) {
        List<UpstreamStub.Seen> seen = stub.seen("GET", "/v1/public/mandates/" + id);
        assertThat(seen).as("calls to mandate-service for %s", id).isNotEmpty();
        var h = seen.get(seen.size() - 1).headers();
        return h.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase("X-Forwarded-For")).findFirst()
                .map(java.util.Map.Entry::getValue).orElse(List.of());
    }

    @Test
    void theCallersAddressReachesTheWrappedService() {
        UpstreamStub stub = UpstreamStubResource.stub();
        String id = stub.mandate("proposed");
        // the test client is loopback, a trusted proxy: its header names the caller, as the gateway's does
        queryThroughMcp(id, "203.0.113.7");
        assertThat(forwardedSeenFor(stub, id)).containsExactly("203.0.113.7");
        // a client-written hop further left is not believed: the right-most untrusted entry is the caller
        String id2 = stub.mandate("proposed");
        queryThroughMcp(id2, "6.6.6.6, 198.51.100.9");
        assertThat(forwardedSeenFor(stub, id2)).containsExactly("198.51.100.9");
    }

    @Test
    void anInternalCallerIsForwardedAsNobody() {
        UpstreamStub stub = UpstreamStubResource.stub();
        String id = stub.mandate("proposed");
        queryThroughMcp(id, null);
        assertThat(forwardedSeenFor(stub, id)).isEmpty();
    }
}
