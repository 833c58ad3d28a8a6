package dev.agentpay.discovery.mcp.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.agentpay.commons.error.ErrorMappers;
import dev.agentpay.commons.limits.ForwardedClient;
import dev.agentpay.discovery.client.HttpJson;
import io.smallrye.common.vertx.ContextLocals;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.discovery.mcp.domain.McpProtocol;
import dev.agentpay.discovery.mcp.service.McpService;
import dev.agentpay.discovery.mcp.service.OriginGuard;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.HostAndPort;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * {@code /disco/mcp}: MCP's streamable HTTP transport, answering each POST with one JSON body (the
 * transport lets a server choose JSON over an SSE stream) and never opening a server-initiated
 * stream, hence 405 for GET and DELETE (there is no session to delete).
 */
@Path("/disco/mcp")
@org.eclipse.microprofile.openapi.annotations.tags.Tag(name = "MCP", description = "Model Context Protocol, streamable HTTP (JSON-RPC 2.0)")
public class McpResource {

    static final String NOT_ALLOWED = "always: JSON-RPC error `-32000`, `Allow: POST`";

    @Inject
    McpService mcp;

    @Inject
    OriginGuard guard;

    @Inject
    ObjectMapper mapper;

    @Inject
    ForwardedClient forwarded;

    @POST
    @Consumes(MediaType.WILDCARD)
    @org.eclipse.microprofile.openapi.annotations.extensions.Extension(name = dev.agentpay.commons.rest.OpenApiContract.BARE, value = "true")
    @Operation(operationId = "callMcp", summary = "Send one MCP JSON-RPC message (initialize, tools/list, tools/call, ...)")
    @APIResponse(responseCode = "200", description = "the JSON-RPC answer: a `result`, or an `error` the method gave",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = McpApi.Response.class)))
    @APIResponse(responseCode = "202", description = "a notification (no `id`) was accepted; no body")
    @APIResponse(responseCode = "400", description = "not one JSON-RPC 2.0 object: a JSON-RPC error `-32700` (parse error) or"
            + " `-32600` (invalid request)", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = McpApi.Response.class)))
    @APIResponse(responseCode = "403", description = "an `Origin` or `Host` this server does not serve (DNS rebinding guard): JSON-RPC error"
            + " `-32000`", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = McpApi.Response.class)))
    @APIResponse(responseCode = "415", description = "not sent as `application/json`: JSON-RPC error `-32600`",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = McpApi.Response.class)))
    public Uni<Response> post(@RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = McpApi.Request.class))) String body, @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType,
            @HeaderParam("Origin") String origin, @HeaderParam("Authorization") String authorization,
            @Context HttpServerRequest request) {
        // HTTP/1.1 Host or HTTP/2 :authority, whichever the client sent
        HostAndPort authority = request.authority();
        String refusal = guard.refusal(origin, authority == null ? null : authority.host());
        if (refusal != null) {
            return Uni.createFrom().item(rpcError(403, McpProtocol.TRANSPORT_REFUSED, "Forbidden: " + refusal));
        }
        if (!isJson(contentType)) {
            return Uni.createFrom().item(rpcError(415, McpProtocol.INVALID_REQUEST, "Unsupported Media Type: send application/json"));
        }
        JsonNode msg;
        String why = "the body is not one JSON value";
        try {
            msg = body == null || body.isBlank() ? null : reader().readTree(body);
        } catch (StreamConstraintsException e) {
            msg = null;
            why = "the body exceeds a JSON limit (depth, string, number or name length)";
        } catch (JsonProcessingException e) {
            msg = null;
            String duplicate = ErrorMappers.duplicateKey(e);
            why = duplicate != null ? duplicate : why;
        }
        if (msg == null) {
            return Uni.createFrom().item(rpcError(400, McpProtocol.PARSE_ERROR, "Parse error: " + why));
        }
        // the tools call mandate-service and invoice-service for this caller: they limit it by its own address
        String caller = forwarded.of(request);
        if (caller != null) {
            ContextLocals.put(HttpJson.CALLER_ADDRESS, caller);
        }
        // MCP's authorization: an OAuth access token on the transport serves the keyed tools (never logged)
        String bearer = authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
                && authorization.length() > 7 ? authorization.substring(7).trim() : null;
        if (bearer != null && !bearer.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
            return Uni.createFrom().item(rpcError(400, McpProtocol.INVALID_REQUEST, "Invalid Request: the Authorization header is not a bearer token"));
        }
        return mcp.handle(msg, bearer).map(answer -> answer
                .map(a -> Response.status(a.has("error") && a.get("error").get("code").asInt() == McpProtocol.INVALID_REQUEST ? 400 : 200)
                        .type(MediaType.APPLICATION_JSON_TYPE).entity(a).build())
                .orElseGet(() -> Response.accepted().build()));
    }

    /**
     * Exactly {@code application/json}, with parameters ({@code ; charset=utf-8}) or not, in any case: not
     * {@code application/jsonx} or {@code application/json-patch+json} (a prefix test let both through).
     */
    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String essence = (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).trim();
        return essence.equalsIgnoreCase(MediaType.APPLICATION_JSON);
    }

    /**
     * The platform's reader (limits, duplicate keys refused at every depth: {@code JsonLimits}; text after the
     * one value refused: {@code StrictJson}) with exact decimals, so an argument such as {@code "amount": 1e400}
     * is a number the validator and the wrapped service judge, not an infinite double.
     */
    private ObjectReader reader() {
        return mapper.reader().with(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    }

    @GET
    @Operation(operationId = "openMcpStream", summary = "Refused: this stateless server opens no server-initiated stream")
    @APIResponse(responseCode = "405", description = NOT_ALLOWED, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = McpApi.Response.class)))
    public Response get() {
        return notAllowed();
    }

    @DELETE
    @Operation(operationId = "deleteMcpSession", summary = "Refused: this stateless server keeps no session to delete")
    @APIResponse(responseCode = "405", description = NOT_ALLOWED, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = McpApi.Response.class)))
    public Response delete() {
        return notAllowed();
    }

    private Response notAllowed() {
        return Response.fromResponse(rpcError(405, McpProtocol.TRANSPORT_REFUSED,
                "Method Not Allowed: this stateless server answers POST only (no server-initiated stream, no session)"))
                .header(HttpHeaders.ALLOW, "POST").build();
    }

    private Response rpcError(int status, int code, String message) {
        ObjectNode e = mcp.error(null, code, message);
        return Response.status(status).type(MediaType.APPLICATION_JSON_TYPE).entity(e).build();
    }
}
