package dev.agentpay.discovery.documents.rest;

import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.rest.OpenApiContract;
import dev.agentpay.discovery.documents.domain.DocumentPaths;
import dev.agentpay.discovery.documents.domain.StaticDocument;
import dev.agentpay.discovery.documents.service.DocumentStore;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.regex.Pattern;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Serves the pre-rendered discovery documents (no credential): each answer carries its strong ETag
 * and Cache-Control, and a matching {@code If-None-Match} is answered 304 with no body (documented for every
 * operation reading that header by service-commons' {@code OpenApiContract}).
 */
@Path("/")
@Tag(name = "Discovery")
public class DocumentResource {

    /** Where the merged OpenAPI document is on the classpath. */
    public static final String OPENAPI_RESOURCE = "/openapi/agentpay-openapi.json";

    private static final Pattern NAME = Pattern.compile("[a-z0-9_.-]{1,64}");

    @Inject
    DocumentStore store;

    @GET
    @Path(".well-known/disco.json")
    @Extension(name = OpenApiContract.BARE, value = "true")
    @Operation(operationId = "getManifest", summary = "Read the discovery manifest (tier 0)")
    @APIResponse(responseCode = "200", description = "the discovery manifest", content = @Content(mediaType = "application/json",
            schema = @Schema(implementation = DocumentApi.Manifest.class)))
    public Response manifest(@HeaderParam(HttpHeaders.IF_NONE_MATCH) String inm) {
        return serve(DocumentPaths.MANIFEST, inm);
    }

    @GET
    @Path(".well-known/agent-card.json")
    @Extension(name = OpenApiContract.BARE, value = "true")
    @Operation(operationId = "getAgentCard", summary = "Read the A2A agent card")
    @APIResponse(responseCode = "200", description = "the A2A agent card (A2A protocol's AgentCard)", content = @Content(mediaType = "application/json",
            schema = @Schema(implementation = DocumentApi.JsonDocument.class)))
    public Response agentCard(@HeaderParam(HttpHeaders.IF_NONE_MATCH) String inm) {
        return serve(DocumentPaths.AGENT_CARD, inm);
    }

    @GET
    @Path("llms.txt")
    @Operation(operationId = "getLlmsTxt", summary = "Read the platform summary for language models")
    @APIResponse(responseCode = "200", description = "the platform summary for language models", content = @Content(mediaType = "text/plain"))
    public Response llms(@HeaderParam(HttpHeaders.IF_NONE_MATCH) String inm) {
        return serve(DocumentPaths.LLMS_TXT, inm);
    }

    @GET
    @Path("disco/sections/{name}.json")
    @Extension(name = OpenApiContract.BARE, value = "true")
    @Operation(operationId = "getSection", summary = "Read a manifest section (tier 1): tool schemas, types, prices")
    @APIResponse(responseCode = "200", description = "a section of the manifest", content = @Content(mediaType = "application/json",
            schema = @Schema(implementation = DocumentApi.JsonDocument.class)))
    @APIResponse(responseCode = "404", description = "no such document")
    public Response section(@PathParam("name") String name, @HeaderParam(HttpHeaders.IF_NONE_MATCH) String inm) {
        return serve(checked(name, "section"), DocumentPaths.section(name), inm);
    }

    @GET
    @Path("disco/reference/{name}")
    @Extension(name = OpenApiContract.BARE, value = "true")
    @Operation(operationId = "getReferenceDocument", summary = "Read a reference document (tier 3)")
    @APIResponse(responseCode = "200", description = "a reference document: Markdown, a JSON document (the state machines) or a"
            + " JSON Schema (`*.schema.json`)", content = {@Content(mediaType = "text/markdown"),
            @Content(mediaType = "application/json", schema = @Schema(implementation = DocumentApi.JsonDocument.class)),
            @Content(mediaType = "application/schema+json", schema = @Schema(implementation = DocumentApi.JsonDocument.class))})
    @APIResponse(responseCode = "404", description = "no such document")
    public Response reference(@PathParam("name") String name, @HeaderParam(HttpHeaders.IF_NONE_MATCH) String inm) {
        return serve(checked(name, "reference"), DocumentPaths.reference(name), inm);
    }

    @GET
    @Path("disco/benchmark.json")
    @Extension(name = OpenApiContract.BARE, value = "true")
    @Operation(operationId = "getBenchmark", summary = "Read the latest published benchmark")
    @APIResponse(responseCode = "200", description = "the latest published benchmark (the publish body's schema:"
            + " /disco/reference/benchmark-publish.schema.json)", content = @Content(mediaType = "application/json", schema = @Schema(implementation = DocumentApi.JsonDocument.class)))
    @APIResponse(responseCode = "404", description = "no such document")
    public Response benchmark(@HeaderParam(HttpHeaders.IF_NONE_MATCH) String inm) {
        return serve(DocumentPaths.BENCHMARK, inm);
    }

    /**
     * The merged OpenAPI 3.1 document of the whole public API, built from every service's own document
     * ({@code deploy/local/node/openapi-merge.mjs}; checked in, kept current by the build's check).
     */
    @GET
    @Path("openapi.json")
    @Extension(name = OpenApiContract.BARE, value = "true")
    @Operation(operationId = "getOpenApiDocument", summary = "Read this OpenAPI 3.1 document of the public API")
    @APIResponse(responseCode = "200", description = "the OpenAPI 3.1 document of the public API", content = @Content(mediaType = "application/json",
            schema = @Schema(implementation = DocumentApi.JsonDocument.class)))
    public Response openapi(@HeaderParam(HttpHeaders.IF_NONE_MATCH) String inm) {
        return answer(OpenApiDocument.INSTANCE, inm);
    }

    /** The merged document, read once from the classpath. */
    private static final class OpenApiDocument {
        static final StaticDocument INSTANCE = load();

        private static StaticDocument load() {
            try (InputStream in = DocumentResource.class.getResourceAsStream(OPENAPI_RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException(OPENAPI_RESOURCE + " is missing from the build");
                }
                return StaticDocument.of(in.readAllBytes(), "application/json", StaticDocument.PUBLIC_5_MIN);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static String checked(String name, String kind) {
        if (!NAME.matcher(name).matches()) {
            throw ApiException.notFound(kind + "_not_found", "no " + kind + " named " + name.substring(0, Math.min(64, name.length())));
        }
        return kind;
    }

    private Response serve(String kind, String path, String inm) {
        StaticDocument doc = store.get(path).orElseThrow(() -> ApiException.notFound(kind + "_not_found", "no " + kind + " at " + path));
        return answer(doc, inm);
    }

    private Response serve(String path, String inm) {
        return serve("document", path, inm);
    }

    /** The document, or 304 when the caller already holds this version. */
    public static Response answer(StaticDocument doc, String inm) {
        Response.ResponseBuilder b = doc.matches(inm)
                ? Response.notModified()
                : Response.ok(doc.body()).type(doc.contentType());
        return b.header(HttpHeaders.ETAG, doc.etag())
                .header(HttpHeaders.CACHE_CONTROL, doc.cacheControl())
                .header(HttpHeaders.VARY, "Accept-Encoding")
                .build();
    }
}
