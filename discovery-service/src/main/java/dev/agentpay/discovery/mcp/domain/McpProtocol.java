package dev.agentpay.discovery.mcp.domain;

import java.util.List;

/** Constants of MCP over JSON-RPC 2.0 as this server speaks it. */
public final class McpProtocol {

    /** Protocol revisions this server answers; the first is offered when a client asks for another. */
    public static final List<String> SUPPORTED_VERSIONS = List.of("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05");
    public static final String LATEST = SUPPORTED_VERSIONS.get(0);

    public static final int PARSE_ERROR = -32700;
    public static final int INVALID_REQUEST = -32600;
    public static final int METHOD_NOT_FOUND = -32601;
    public static final int INVALID_PARAMS = -32602;
    public static final int INTERNAL_ERROR = -32603;
    /** Server-defined: the transport refused the request (origin, host, method). */
    public static final int TRANSPORT_REFUSED = -32000;

    private McpProtocol() {
    }
}
