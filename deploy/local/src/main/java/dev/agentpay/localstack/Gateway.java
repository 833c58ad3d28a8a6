package dev.agentpay.localstack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.agentpay.commons.error.ErrorBody;
import dev.agentpay.commons.limits.ClientAddress;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.httpproxy.Body;
import io.vertx.httpproxy.HttpProxy;
import io.vertx.httpproxy.ProxyContext;
import io.vertx.httpproxy.ProxyInterceptor;
import io.vertx.httpproxy.ProxyResponse;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The local gateway: one base URL in front of the six services, routing by path prefix from
 * {@code deploy/helm/agentpay/routes.yaml}, the same table the Helm chart turns into its Ingress.
 */
public final class Gateway implements AutoCloseable {

    /** One row of the routing table. */
    public record Route(String prefix, String service) {

        boolean matches(String path) {
            return path.equals(prefix) || path.startsWith(prefix.endsWith("/") ? prefix : prefix + "/");
        }
    }

    private final Vertx vertx;
    private final HttpServer server;

    private Gateway(Vertx vertx, HttpServer server) {
        this.vertx = vertx;
        this.server = server;
    }

    public static Path routesFile() {
        return RepoPaths.root().resolve("deploy/helm/agentpay/routes.yaml");
    }

    /** Reads the routing table, longest prefix first. */
    public static List<Route> readRoutes(Path file) {
        try {
            JsonNode doc = new ObjectMapper(new YAMLFactory()).readTree(file.toFile());
            List<Route> routes = new ArrayList<>();
            for (JsonNode r : doc.path("routes")) {
                routes.add(new Route(r.path("prefix").asText(), r.path("service").asText()));
            }
            routes.sort(Comparator.comparingInt((Route r) -> r.prefix().length()).reversed());
            return routes;
        } catch (IOException e) {
            throw new IllegalStateException("cannot read routes from " + file, e);
        }
    }

    /** Longest silence from a service on one proxied request before the caller gets {@code 504 upstream_timeout}. */
    static final long BACKEND_IDLE_TIMEOUT_MS = 20_000;

    /** Where the proxy exchange keeps why no service answered (the proxy itself answers an empty 502). */
    private static final String UPSTREAM_FAILURE = "agentpay.upstream-failure";

    /**
     * The answer when no service answered: the proxy's own is an empty 502; the caller gets the error envelope and
     * {@code Retry-After}, {@code 504 upstream_timeout} when the service stayed silent for
     * {@link #BACKEND_IDLE_TIMEOUT_MS} (e.g. a frozen instance), else {@code 502 upstream_unavailable} (its connection
     * failed, or no instance took it). Either way the request may have reached the service, so the message says its
     * effect is unknown.
     */
    static void upstreamFailure(ProxyResponse response, Throwable failure) {
        boolean timeout = false;
        for (Throwable t = failure; t != null && !timeout; t = t.getCause()) {
            timeout = t instanceof TimeoutException;
        }
        String body = timeout
                ? ErrorBody.json("upstream_timeout", "the service did not answer within " + BACKEND_IDLE_TIMEOUT_MS / 1000
                        + " s; the request may have taken effect: read the resource before retrying it")
                : ErrorBody.json("upstream_unavailable", "the service's connection failed before it answered; the request may"
                        + " have taken effect: read the resource before retrying it");
        response.headers().clear();
        response.setStatusCode(timeout ? 504 : 502).setStatusMessage(timeout ? "Gateway Timeout" : "Bad Gateway")
                .putHeader("content-type", "application/json").putHeader("retry-after", "1")
                .setBody(Body.body(Buffer.buffer(body)));
    }

    /** Starts the gateway in front of one instance of each service ({@code servicePorts}: service name -> local port). */
    public static Gateway start(int port, List<Route> routes, Map<String, Integer> servicePorts) {
        return start(port, routes, servicePorts, GatewayClientGuard.Limits.fromEnvironment());
    }

    static Gateway start(int port, List<Route> routes, Map<String, Integer> servicePorts, GatewayClientGuard.Limits limits) {
        Map<String, List<Integer>> one = new java.util.LinkedHashMap<>();
        servicePorts.forEach((name, p) -> one.put(name, List.of(p)));
        return startBalanced(port, routes, one, limits);
    }

    /**
     * Starts the gateway in front of several instances of each service ({@code --replicas N}), balanced by
     * {@link Balancer}.
     *
     * @param instancePorts service name -> its instances' local ports
     */
    public static Gateway startBalanced(int port, List<Route> routes, Map<String, List<Integer>> instancePorts) {
        return startBalanced(port, routes, instancePorts, GatewayClientGuard.Limits.fromEnvironment());
    }

    static Gateway startBalanced(int port, List<Route> routes, Map<String, List<Integer>> instancePorts, GatewayClientGuard.Limits limits) {
        Vertx vertx = Vertx.vertx();
        Balancer balancer = new Balancer(vertx, instancePorts);
        GatewayClientGuard guard = new GatewayClientGuard(vertx, limits);
        ClientAddress proxies = trustedProxies(limits.trustedProxies());
        HttpClient client = vertx.createHttpClient(new HttpClientOptions()
                .setMaxPoolSize(200)
                .setKeepAlive(true)
                .setConnectTimeout(5000)
                .setIdleTimeout(60));
        HttpProxy proxy = HttpProxy.reverseProxy(client);
        proxy.originRequestProvider((req, c) -> {
            Route route = route(routes, publicPath(req.path()));
            // A backend that dies mid-request may leave the proxied exchange without an answer; the idle
            // timeout turns that into a 504 for the caller instead of a hang (no endpoint streams or
            // stays silent this long). Which instance, and retries on another: Balancer.
            return balancer.connect(c, route.service(), req.method(), BACKEND_IDLE_TIMEOUT_MS);
        });
        proxy.addInterceptor(new ProxyInterceptor() {
            @Override
            public Future<ProxyResponse> handleProxyRequest(ProxyContext context) {
                HttpServerRequest in = context.request().proxiedRequest();
                // Forward the path that was routed, so the service cannot resolve dot segments elsewhere.
                String query = in.query();
                context.request().setURI(publicPath(in.path()) + (query == null ? "" : "?" + query));
                context.request().headers().set("x-forwarded-for", forwardedFor(proxies, in));
                context.request().headers().set("x-forwarded-proto", "http");
                // The service sees the Host the client sent, as behind the Ingress: the MCP endpoint's
                // DNS-rebinding check must judge the client's Host, not the gateway's own address.
                if (in.authority() != null) {
                    context.request().setAuthority(in.authority());
                }
                if (in.getHeader("x-forwarded-host") == null && in.authority() != null) {
                    context.request().headers().set("x-forwarded-host", in.authority().toString());
                }
                return BufferedBody.thenSend(context, limits.maxBodyBytes()).onFailure(err -> context.set(UPSTREAM_FAILURE, err));
            }

            @Override
            public Future<Void> handleProxyResponse(ProxyContext context) {
                Throwable failure = context.get(UPSTREAM_FAILURE, Throwable.class);
                if (failure != null) {
                    upstreamFailure(context.response(), failure);
                }
                return context.sendResponse();
            }
        });
        // HTTP/1.1 only: with clear-text HTTP/2 (a Java client's default h2c upgrade) a request in flight
        // when its service was killed could stay unanswered (FaultIT, bench/FAULTS.md); the Kubernetes
        // Ingress, not this development gateway, is where HTTP/2 is served.
        HttpServer server = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(port)
                        .setHttp2ClearTextEnabled(false))
                .connectionHandler(guard::opened)
                .invalidRequestHandler(Gateway::invalidRequest)
                .requestHandler(req -> {
                    guard.requestStarted(req);
                    String path = publicPath(req.path());
                    if (path == null) {
                        req.response().setStatusCode(400).putHeader("content-type", "application/json")
                                .end(ErrorBody.json("invalid_path", "path not accepted"));
                        return;
                    }
                    Route route = route(routes, path);
                    if (route == null || !balancer.serves(route.service())) {
                        req.response().setStatusCode(404).putHeader("content-type", "application/json")
                                .end(ErrorBody.json("not_found", "no such resource"));
                        return;
                    }
                    proxy.handle(req);
                });
        try {
            server.listen().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            vertx.close();
            throw new IllegalStateException("gateway cannot listen on " + port + ": " + e.getMessage(), e);
        }
        return new Gateway(vertx, server);
    }

    /**
     * A request the HTTP codec could not read: a request line over 4096 characters ({@code 414 uri_too_long}),
     * headers over 8 KiB ({@code 431 headers_too_large}), anything else malformed ({@code 400 invalid_request});
     * each with the error envelope (Vert.x's default answers without a body), then the connection is closed.
     */
    static void invalidRequest(HttpServerRequest req) {
        Throwable cause = req.decoderResult() == null ? null : req.decoderResult().cause();
        int status;
        String body;
        if (cause instanceof io.netty.handler.codec.http.TooLongHttpLineException) {
            status = 414;
            body = ErrorBody.json("uri_too_long", "the request URI is too long");
        } else if (cause instanceof io.netty.handler.codec.http.TooLongHttpHeaderException) {
            status = 431;
            body = ErrorBody.json("headers_too_large", "the request headers are too large");
        } else {
            status = 400;
            body = ErrorBody.json("invalid_request", "the request could not be read as HTTP/1.1");
        }
        req.response().setStatusCode(status).putHeader("content-type", "application/json").putHeader("connection", "close")
                .end(body).onComplete(v -> req.connection().close());
    }

    /**
     * The path as the services will see it: dot segments removed and unreserved percent-escapes
     * decoded (RFC 3986), so {@code /v1/public/../../admin} is routed as {@code /admin} (no route),
     * never forwarded raw to a service that would normalise it itself. Encoded slashes or
     * backslashes, which services treat differently, are refused (null).
     */
    static String publicPath(String raw) {
        if (raw == null || raw.indexOf('\\') >= 0) {
            return null;
        }
        String lower = raw.toLowerCase(java.util.Locale.ROOT);
        if (lower.contains("%2f") || lower.contains("%5c") || lower.contains("%00")) {
            return null;
        }
        try {
            return io.vertx.core.http.impl.HttpUtils.normalizePath(raw);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * The {@code X-Forwarded-For} the service sees: the client's own header is kept (and the client's
     * address appended) only when the client is a configured proxy ({@code GATEWAY_TRUSTED_PROXIES});
     * any other client's header is dropped, so a local caller cannot pick the address it is limited by.
     */
    static String forwardedFor(ClientAddress proxies, HttpServerRequest in) {
        String client = in.remoteAddress() == null ? "unknown" : in.remoteAddress().hostAddress();
        String prior = in.getHeader("x-forwarded-for");
        return prior == null || prior.isBlank() || !proxies.trusts(client) ? client : prior + ", " + client;
    }

    static ClientAddress trustedProxies(List<String> proxies) {
        try {
            return new ClientAddress(proxies);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("GATEWAY_TRUSTED_PROXIES: " + e.getMessage(), e);
        }
    }

    static Route route(List<Route> routes, String path) {
        if (path == null) {
            return null;
        }
        for (Route r : routes) {
            if (r.matches(path)) {
                return r;
            }
        }
        return null;
    }

    public int port() {
        return server.actualPort();
    }

    @Override
    public void close() {
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            // closing anyway
        }
    }
}
