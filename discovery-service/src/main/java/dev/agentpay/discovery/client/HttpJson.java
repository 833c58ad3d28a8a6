package dev.agentpay.discovery.client;

import dev.agentpay.discovery.domain.UpstreamUnavailableException;
import dev.agentpay.discovery.domain.UpstreamResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.commons.limits.ForwardedClient;
import dev.agentpay.discovery.config.DiscoveryConfig;
import io.smallrye.common.vertx.ContextLocals;
import io.smallrye.common.vertx.VertxContext;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.ext.web.client.HttpRequest;
import io.vertx.mutiny.ext.web.client.HttpResponse;
import io.vertx.mutiny.ext.web.client.WebClient;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;

/**
 * The shared non-blocking HTTP client of the service wrappers; parses JSON answers leniently. Every upstream
 * call has one shape: a JSON request under {@code discovery.upstream-timeout} ({@link #jsonRequest}), and a
 * failure to get an answer turned into {@link UpstreamUnavailableException}, after one retry for a read
 * ({@link #read}) and none for a call that changes state ({@link #write}).
 */
@ApplicationScoped
public class HttpJson {

    @Inject
    Vertx vertx;

    @Inject
    ObjectMapper mapper;

    @Inject
    DiscoveryConfig config;

    private volatile WebClient client;

    WebClient client() {
        if (client == null) {
            synchronized (this) {
                if (client == null) {
                    client = WebClient.create(vertx, new WebClientOptions()
                            .setConnectTimeout(3000)
                            .setKeepAlive(true)
                            .setMaxPoolSize(50)
                            .setUserAgent("agentpay-discovery-service"));
                }
            }
        }
        return client;
    }

    @PreDestroy
    void close() {
        if (client != null) {
            client.close();
        }
    }

    public HttpRequest<io.vertx.mutiny.core.buffer.Buffer> request(io.vertx.core.http.HttpMethod method, String absoluteUrl) {
        return client().requestAbs(method, absoluteUrl);
    }

    /** A request accepting JSON, under the configured upstream time-out. */
    public HttpRequest<io.vertx.mutiny.core.buffer.Buffer> jsonRequest(io.vertx.core.http.HttpMethod method, String absoluteUrl) {
        return request(method, absoluteUrl)
                .putHeader("accept", "application/json")
                .timeout(config.upstreamTimeout().toMillis());
    }

    /** The context-local key of the public caller's address, set by the MCP endpoint for the request's duration. */
    public static final String CALLER_ADDRESS = "agentpay.caller-address";

    /**
     * Names the public caller this request is made for ({@code X-Forwarded-For}), so the called service limits
     * that caller by address as it does behind the gateway: MCP tools and REST share one allowance (issue 33).
     * The address is the one the MCP endpoint resolved ({@code ForwardedClient}) and kept on the request's
     * Vert.x duplicated context; a call made outside a request (a scheduled job) or for an internal caller
     * names nobody. Only for our own services: never on a call to an outside host (the anchor RPC).
     */
    public HttpRequest<io.vertx.mutiny.core.buffer.Buffer> forCaller(HttpRequest<io.vertx.mutiny.core.buffer.Buffer> req) {
        if (VertxContext.isOnDuplicatedContext()) {
            ContextLocals.<String>get(CALLER_ADDRESS).ifPresent(a -> req.putHeader(ForwardedClient.HEADER, a));
        }
        return req;
    }

    /** A read of {@code service}: retried once on failure, then {@link UpstreamUnavailableException}. */
    public <T> Uni<T> read(String service, Uni<T> call) {
        return write(service, call.onFailure().retry().withBackOff(Duration.ofMillis(200)).atMost(1));
    }

    /**
     * A call to {@code service} that is never retried (it changes state or spends a payment proof: a repeat
     * after a lost answer is the caller's decision); a failure is {@link UpstreamUnavailableException}.
     */
    public <T> Uni<T> write(String service, Uni<T> call) {
        return call.onFailure().transform(e -> new UpstreamUnavailableException(service, e));
    }

    public UpstreamResponse toResponse(HttpResponse<io.vertx.mutiny.core.buffer.Buffer> r) {
        JsonNode body = null;
        io.vertx.mutiny.core.buffer.Buffer b = r.body();
        if (b != null && b.length() > 0) {
            try {
                body = mapper.readTree(b.getBytes());
            } catch (Exception e) {
                body = null;
            }
        }
        return new UpstreamResponse(r.statusCode(), body);
    }

    public Uni<UpstreamResponse> send(HttpRequest<io.vertx.mutiny.core.buffer.Buffer> req, Object jsonBody) {
        Uni<HttpResponse<io.vertx.mutiny.core.buffer.Buffer>> call;
        if (jsonBody == null) {
            call = req.send();
        } else {
            try {
                call = req.putHeader("content-type", "application/json")
                        .sendBuffer(io.vertx.mutiny.core.buffer.Buffer.newInstance(Buffer.buffer(mapper.writeValueAsBytes(jsonBody))));
            } catch (Exception e) {
                return Uni.createFrom().failure(e);
            }
        }
        return call.map(this::toResponse);
    }
}
