package dev.agentpay.discovery.mcp.rest;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The JSON-RPC 2.0 messages of {@code POST /disco/mcp}, for the OpenAPI document only: the resource reads the
 * body as text and the service builds the answers as trees, so that a malformed message still gets its
 * JSON-RPC error ({@code -32700}, {@code -32600}) rather than a framework error.
 */
public final class McpApi {

    private McpApi() {
    }

    @Schema(name = "JsonRpcRequest", description = "One JSON-RPC 2.0 request or notification (no `id`); batches are refused."
            + " Methods: `initialize`, `notifications/initialized`, `ping`, `tools/list`, `tools/call`, `resources/list`,"
            + " `resources/read`, `prompts/list`.")
    public record Request(
            @Schema(required = true, enumeration = "2.0") String jsonrpc,
            @Schema(description = "a string or an integer; absent for a notification (answered 202 without a body)") JsonNode id,
            @Schema(required = true, examples = "tools/call") String method,
            @Schema(type = SchemaType.OBJECT, description = "the method's parameters, e.g. `{name, arguments}` for `tools/call`")
            Map<String, Object> params) {
    }

    @Schema(name = "JsonRpcResponse", description = "The JSON-RPC 2.0 answer: `result` on success, `error` otherwise (never both).")
    public record Response(
            @Schema(required = true, enumeration = "2.0") String jsonrpc,
            @Schema(required = true, description = "the request's id (a string or an integer); null when it could not be read")
            JsonNode id,
            @Schema(type = SchemaType.OBJECT, description = "the method's result (MCP: `serverInfo`, `tools`, `content`, ...)")
            Map<String, Object> result,
            Error error) {
    }

    @Schema(name = "JsonRpcError")
    public record Error(
            @Schema(required = true, description = "-32700 parse error, -32600 invalid request, -32601 method not found,"
                    + " -32602 invalid params, -32603 internal error, -32000 refused by the transport (origin, host, method)")
            int code,
            @Schema(required = true) String message,
            @Schema(description = "details, when the server gives them") JsonNode data) {
    }
}
