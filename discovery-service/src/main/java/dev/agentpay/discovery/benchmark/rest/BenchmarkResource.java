package dev.agentpay.discovery.benchmark.rest;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.agentpay.commons.auth.AdminOnly;
import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.rest.Envelope;
import dev.agentpay.discovery.benchmark.domain.BenchmarkPublication;
import dev.agentpay.discovery.benchmark.service.BenchmarkService;
import dev.agentpay.discovery.documents.domain.StaticDocument;
import dev.agentpay.discovery.documents.rest.DocumentResource;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.nio.charset.StandardCharsets;
import java.math.BigDecimal;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import java.util.regex.Pattern;

/** Publishing benchmarks (admin) and serving their raw logs (public, immutable by id). */
@Path("/disco/benchmark")
@Tag(name = "Discovery")
public class BenchmarkResource {

    private static final Pattern ID = Pattern.compile("bm_[0-9a-f]{32}");

    @Inject
    BenchmarkService service;

    /** What a publication answers (snake_case, as the benchmark documents are written). */
    public record PublishedView(String id, BigDecimal score, @JsonProperty("meets_floor") boolean meetsFloor,
            @JsonProperty("benchmark_url") String benchmarkUrl, @JsonProperty("raw_logs_url") String rawLogsUrl) {
    }

    @POST
    @Path("publish")
    @AdminOnly
    @Operation(operationId = "publishBenchmark", summary = "Publish a benchmark run (operator)")
    @APIResponse(responseCode = "201", description = "published", content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = PublishedView.class)))
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Response> publish(@Valid @NotNull BenchmarkPublication doc) {
        return service.publish(doc).map(p -> Response.status(201)
                .entity(Envelope.of(new PublishedView(p.id(), p.score(), p.meetsFloor(), p.benchmarkUrl(), p.rawLogsUrl())))
                .build());
    }

    @GET
    @Path("raw/{id}.jsonl")
    @Operation(operationId = "getBenchmarkRawLogs", summary = "Read a published benchmark's raw logs (JSON lines)")
    @APIResponse(responseCode = "200", description = "the raw logs (immutable)", content = @Content(mediaType = "application/x-ndjson"))
    @APIResponse(responseCode = "404", description = "no such benchmark (`benchmark_not_found`)")
    public Uni<Response> raw(@PathParam("id") String id, @HeaderParam(HttpHeaders.IF_NONE_MATCH) String inm) {
        if (!ID.matcher(id).matches()) {
            throw ApiException.notFound("benchmark_not_found", "no benchmark with that id");
        }
        return service.rawLogs(id).map(o -> o
                .map(s -> DocumentResource.answer(StaticDocument.of(s.getBytes(StandardCharsets.UTF_8), "application/x-ndjson",
                        StaticDocument.IMMUTABLE), inm))
                .orElseThrow(() -> ApiException.notFound("benchmark_not_found", "no benchmark " + id)));
    }
}
