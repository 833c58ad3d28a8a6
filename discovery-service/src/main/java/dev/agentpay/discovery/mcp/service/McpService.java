package dev.agentpay.discovery.mcp.service;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.commons.logging.LogSafe;
import dev.agentpay.discovery.catalog.domain.Catalog;
import dev.agentpay.discovery.documents.service.DocumentService;
import dev.agentpay.discovery.mcp.domain.McpProtocol;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * The MCP server proper, stateless: every request is answered on its own, so {@code tools/list} and
 * {@code tools/call} need no prior {@code initialize} and no session exists to lose or share between
 * replicas. An empty answer means the message was a notification or a response (HTTP 202).
 */
@ApplicationScoped
public class McpService {

    private static final Logger LOG = Logger.getLogger(McpService.class);

    @Inject
    ObjectMapper mapper;

    @Inject
    Catalog catalog;

    @Inject
    DocumentService documents;

    @Inject
    ToolExecutor executor;

    private ObjectNode toolsListResult;

    @PostConstruct
    void init() {
        toolsListResult = mapper.createObjectNode();
        toolsListResult.set("tools", documents.mcpTools());
    }

    /** Answers one JSON-RPC message (already parsed). */
    public Uni<Optional<ObjectNode>> handle(JsonNode msg) {
        return handle(msg, null);
    }

    /** Handles one message; {@code bearer}: the access token of the request's {@code Authorization: Bearer} header, if any. */
    public Uni<Optional<ObjectNode>> handle(JsonNode msg, String bearer) {
        if (!msg.isObject()) {
            return reply(error(null, McpProtocol.INVALID_REQUEST, "Invalid Request: expected one JSON-RPC object (batches are not supported)"));
        }
        JsonNode id = msg.get("id");
        boolean hasId = id != null && !id.isNull();
        if (hasId && !(id.isTextual() || id.isIntegralNumber())) {
            return reply(error(null, McpProtocol.INVALID_REQUEST, "Invalid Request: id must be a string or an integer"));
        }
        JsonNode method = msg.get("method");
        if (!"2.0".equals(msg.path("jsonrpc").asText())) {
            return reply(error(hasId ? id : null, McpProtocol.INVALID_REQUEST, "Invalid Request: jsonrpc must be \"2.0\""));
        }
        if (method == null) {
            if (msg.has("result") || msg.has("error")) {
                return Uni.createFrom().item(Optional.empty()); // a client's response to us: nothing to say
            }
            return reply(error(hasId ? id : null, McpProtocol.INVALID_REQUEST, "Invalid Request: method is missing"));
        }
        if (!method.isTextual()) {
            return reply(error(hasId ? id : null, McpProtocol.INVALID_REQUEST, "Invalid Request: method must be a string"));
        }
        if (!hasId) {
            return Uni.createFrom().item(Optional.empty()); // notifications (initialized, cancelled, ...) need no answer
        }
        JsonNode params = msg.get("params");
        if (params != null && !params.isNull() && !params.isObject()) {
            return reply(error(id, McpProtocol.INVALID_PARAMS, "Invalid params: params must be an object"));
        }
        ObjectNode p = params != null && params.isObject() ? (ObjectNode) params : mapper.createObjectNode();
        return switch (method.asText()) {
            case "initialize" -> reply(result(id, initialize(p)));
            case "ping" -> reply(result(id, mapper.createObjectNode()));
            case "tools/list" -> reply(result(id, toolsListResult));
            case "tools/call" -> toolsCall(id, p, bearer);
            default -> reply(error(id, McpProtocol.METHOD_NOT_FOUND, "Method not found: " + truncate(method.asText())));
        };
    }

    private ObjectNode initialize(ObjectNode p) {
        String requested = p.path("protocolVersion").asText("");
        ObjectNode r = mapper.createObjectNode();
        r.put("protocolVersion", McpProtocol.SUPPORTED_VERSIONS.contains(requested) ? requested : McpProtocol.LATEST);
        r.putObject("capabilities").putObject("tools").put("listChanged", false);
        JsonNode svc = catalog.service();
        r.putObject("serverInfo").put("name", svc.get("name").asText() + "-discovery")
                .put("title", svc.get("title").asText())
                .put("version", svc.get("service_version").asText());
        r.put("instructions", "Stateless MCP server: tools/list and tools/call work without initialize or a session. "
                + "Discovery manifest: " + documents.url("/.well-known/disco.json")
                + ". Paid tools (x402) answer a PaymentRequired object until called with x_payment.");
        return r;
    }

    private Uni<Optional<ObjectNode>> toolsCall(JsonNode id, ObjectNode p, String bearer) {
        JsonNode name = p.get("name");
        if (name == null || !name.isTextual()) {
            return reply(error(id, McpProtocol.INVALID_PARAMS, "Invalid params: name (string) is required"));
        }
        Optional<ObjectNode> tool = catalog.tool(name.asText());
        if (tool.isEmpty()) {
            return reply(error(id, McpProtocol.INVALID_PARAMS, "Unknown tool: " + truncate(name.asText())));
        }
        JsonNode args = p.get("arguments");
        if (args != null && !args.isNull() && !args.isObject()) {
            return reply(error(id, McpProtocol.INVALID_PARAMS, "Invalid params: arguments must be an object"));
        }
        ObjectNode a = args != null && args.isObject() ? (ObjectNode) args : mapper.createObjectNode();
        return executor.call(tool.get(), a, bearer)
                .map(r -> Optional.of(result(id, r)))
                .onFailure().recoverWithItem(e -> {
                    LOG.error("tool " + LogSafe.value(name.asText()) + " failed unexpectedly", e);
                    return Optional.of(result(id, executor.failure("The tool failed unexpectedly; retry later",
                            mapper.createObjectNode().set("error", mapper.createObjectNode().put("code", "internal_error")
                                    .put("message", "unexpected failure")))));
                });
    }

    private ObjectNode result(JsonNode id, ObjectNode result) {
        ObjectNode r = mapper.createObjectNode();
        r.put("jsonrpc", "2.0");
        r.set("id", id);
        r.set("result", result);
        return r;
    }

    public ObjectNode error(JsonNode id, int code, String message) {
        ObjectNode r = mapper.createObjectNode();
        r.put("jsonrpc", "2.0");
        r.set("id", id == null ? mapper.nullNode() : id);
        r.putObject("error").put("code", code).put("message", message);
        return r;
    }

    private static Uni<Optional<ObjectNode>> reply(ObjectNode n) {
        return Uni.createFrom().item(Optional.of(n));
    }

    private static String truncate(String s) {
        return s.length() > 100 ? s.substring(0, 100) + "..." : s;
    }
}
