package dev.agentpay.discovery.documents.rest;

import dev.agentpay.commons.error.ApiException;
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
import java.util.regex.Pattern;

/**
 * Serves the pre-rendered discovery documents (no credential): each answer carries its strong ETag
 * and Cache-Control, and a matching {@code If-None-Match} is answered 304 with no body.
 */
@Path("/")
public class DocumentResource {

    private static final Pattern NAME = Pattern.compile("[a-z0-9_.-]{1,64}");

    @Inject
    DocumentStore store;

    @GET
    @Path(".well-known/disco.json")
    public Response manifest(@HeaderParam(HttpHeaders.IF_NONE_MATCH) String inm) {
        return serve(DocumentPaths.MANIFEST, inm);
    }

    @GET
    @Path(".well-known/agent-card.json")
    public Response agentCard(@HeaderParam(HttpHeaders.IF_NONE_MATCH) String inm) {
        return serve(DocumentPaths.AGENT_CARD, inm);
    }

    @GET
    @Path("llms.txt")
    public Response llms(@HeaderParam(HttpHeaders.IF_NONE_MATCH) String inm) {
        return serve(DocumentPaths.LLMS_TXT, inm);
    }

    @GET
    @Path("disco/sections/{name}.json")
    public Response section(@PathParam("name") String name, @HeaderParam(HttpHeaders.IF_NONE_MATCH) String inm) {
        return serve(checked(name, "section"), DocumentPaths.section(name), inm);
    }

    @GET
    @Path("disco/reference/{name}")
    public Response reference(@PathParam("name") String name, @HeaderParam(HttpHeaders.IF_NONE_MATCH) String inm) {
        return serve(checked(name, "reference"), DocumentPaths.reference(name), inm);
    }

    @GET
    @Path("disco/benchmark.json")
    public Response benchmark(@HeaderParam(HttpHeaders.IF_NONE_MATCH) String inm) {
        return serve(DocumentPaths.BENCHMARK, inm);
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
