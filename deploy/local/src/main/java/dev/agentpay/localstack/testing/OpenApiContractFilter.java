package dev.agentpay.localstack.testing;

import io.restassured.filter.Filter;
import io.restassured.filter.FilterContext;
import io.restassured.response.Response;
import io.restassured.specification.FilterableRequestSpecification;
import io.restassured.specification.FilterableResponseSpecification;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The OpenAPI contract test of every service (issue 33 item 6): a RestAssured filter, registered for every
 * {@code @QuarkusTest} by {@link OpenApiContractCallback}, that compares each real answer a test receives
 * with the service's own document ({@code /q/openapi}, fetched once from the same server) through
 * {@link OpenApiContractCheck}. A status the operation does not document, a JSON body off its schema or with
 * a field the schema does not name, or an operation without a client-style operationId fails the test that
 * made the call, naming the operation and what is missing. Nothing lists operations: an endpoint added
 * tomorrow is checked by its own tests.
 *
 * <p>{@code -Dopenapi.contract=record} writes the findings to {@code target/openapi-contract/violations.txt}
 * instead of failing (to see them all at once while documenting); {@code off} skips the check. Every
 * operation answered is appended to {@code target/openapi-contract/answered.txt}.
 */
public final class OpenApiContractFilter implements Filter {

    static final String MODE = System.getProperty("openapi.contract", "fail");
    private static final Path OUT = Path.of("target", "openapi-contract");
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** Per server (scheme://host:port): its document's check, or empty when it serves none. */
    private static final Map<String, Optional<OpenApiContractCheck>> DOCUMENTS = new ConcurrentHashMap<>();

    /** What {@code record} mode has written already (each finding once). */
    private static final java.util.Set<String> REPORTED = ConcurrentHashMap.newKeySet();

    @Override
    public Response filter(FilterableRequestSpecification req, FilterableResponseSpecification res, FilterContext ctx) {
        Response response = ctx.next(req, res);
        if ("off".equals(MODE)) {
            return response;
        }
        URI uri;
        try {
            uri = URI.create(req.getURI());
        } catch (IllegalArgumentException e) {
            return response; // a deliberately malformed URL (a fuzzing test): no operation to compare with
        }
        if (uri.getRawPath() == null || uri.getRawPath().startsWith("/q/")) {
            return response;
        }
        String server = uri.getScheme() + "://" + uri.getHost() + ":" + uri.getPort();
        Optional<OpenApiContractCheck> check = DOCUMENTS.computeIfAbsent(server, OpenApiContractFilter::load);
        if (check.isEmpty()) {
            return response;
        }
        String method = req.getMethod();
        List<String> findings = new java.util.ArrayList<>(check.get().conventions());
        findings.addAll(check.get().check(method, uri.getRawPath(), response.statusCode(), response.contentType(),
                response.asString()));
        check.get().template(method, uri.getRawPath()).ifPresent(t ->
                append("answered.txt", method.toUpperCase() + " " + t + " " + response.statusCode()));
        findings.removeIf(f -> "record".equals(MODE) && !REPORTED.add(f));
        if (!findings.isEmpty()) {
            String text = String.join("\n", findings);
            if ("record".equals(MODE)) {
                append("violations.txt", text);
            } else {
                throw new AssertionError("the OpenAPI document does not describe this answer (OpenApiContractFilter; "
                        + "-Dopenapi.contract=record lists them all):\n" + text);
            }
        }
        return response;
    }

    private static Optional<OpenApiContractCheck> load(String server) {
        try {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(server + "/q/openapi?format=json"))
                    .timeout(Duration.ofSeconds(20)).header("accept", "application/json").build(),
                    HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 && r.body().contains("\"openapi\"") ? Optional.of(OpenApiContractCheck.of(r.body()))
                    : Optional.empty();
        } catch (IOException | IllegalArgumentException e) {
            // not a server of ours (a stub a test started): nothing to compare with
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private static synchronized void append(String file, String line) {
        try {
            Files.createDirectories(OUT);
            Files.writeString(OUT.resolve(file), line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
