package dev.agentpay.localstack;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.httpproxy.HttpProxy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * How services reach each other with {@code --replicas N}: one local port per service, balanced over its
 * instances by a {@link Balancer} (round robin over the ready ones, a refused connection retried on the next),
 * forwarding every path as it is, as a Kubernetes Service does inside the cluster. Not the public gateway: no
 * routing table, no client limits, and the internal paths the gateway never routes (e.g. invoice-service's
 * {@code /admin/charges/{id}/invoice}, which mandate-service calls for a budget charge) reach the service.
 * Started before the services, so a service calling another one at start-up finds the port (a request meets a
 * refused connection, hence a 502, only while no instance of the callee is up).
 */
final class ServiceProxies implements AutoCloseable {

    private final Vertx vertx;
    private final Balancer balancer;
    private final Map<String, Integer> ports;

    private ServiceProxies(Vertx vertx, Balancer balancer, Map<String, Integer> ports) {
        this.vertx = vertx;
        this.balancer = balancer;
        this.ports = ports;
    }

    /**
     * @param listen        service name -> the port its proxy listens on
     * @param instancePorts service name -> its instances' ports (instance 1 first)
     */
    static ServiceProxies start(Map<String, Integer> listen, Map<String, List<Integer>> instancePorts) {
        Vertx vertx = Vertx.vertx();
        Balancer balancer = new Balancer(vertx, instancePorts);
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setMaxPoolSize(100).setKeepAlive(true)
                .setConnectTimeout(5000).setIdleTimeout(60));
        List<io.vertx.core.Future<HttpServer>> listening = new ArrayList<>();
        listen.forEach((service, port) -> {
            HttpProxy proxy = HttpProxy.reverseProxy(client);
            proxy.originRequestProvider((req, c) -> balancer.connect(c, service, req.method(), Gateway.BACKEND_IDLE_TIMEOUT_MS));
            listening.add(vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(port)
                    .setHttp2ClearTextEnabled(false)).requestHandler(proxy::handle).listen());
        });
        try {
            io.vertx.core.Future.all(listening).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            vertx.close();
            throw new IllegalStateException("service proxies cannot listen on " + listen + ": " + e.getMessage(), e);
        }
        return new ServiceProxies(vertx, balancer, new LinkedHashMap<>(listen));
    }

    /** The URL other services use to reach {@code service}. */
    String url(String service) {
        return "http://127.0.0.1:" + ports.get(service);
    }

    @Override
    public void close() {
        balancer.close();
        try {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            // closing anyway
        }
    }
}
