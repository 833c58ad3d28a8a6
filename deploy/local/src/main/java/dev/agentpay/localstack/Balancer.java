package dev.agentpay.localstack;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The local gateway's load balancing over a service's instances ({@code deploy/local/run --replicas N};
 * issue 29): round robin over the instances whose readiness check ({@code /q/health/ready}) last answered
 * 200, checked every {@link #PROBE_EVERY_MS}; an instance that refuses a connection is taken out at once
 * (until its readiness answers again); an instance that is draining (readiness DOWN after SIGTERM) or frozen
 * (no answer within {@link #PROBE_TIMEOUT_MS}) is taken out at the next check. A request whose connection
 * fails is tried on the next instance: any request when the connection was refused (nothing reached the
 * service), a GET or HEAD also when connecting failed otherwise (a timeout); a failure after the request
 * was sent is never retried here (the service may have acted on it).
 */
final class Balancer implements AutoCloseable {

    static final long PROBE_EVERY_MS = 500;
    static final long PROBE_TIMEOUT_MS = 1000;

    /** One instance of a service. */
    static final class Backend {
        final String service;
        final int index;
        final int port;
        volatile boolean ready = true;

        Backend(String service, int index, int port) {
            this.service = service;
            this.index = index;
            this.port = port;
        }

        @Override
        public String toString() {
            return service + "#" + index + "(:" + port + (ready ? ", ready)" : ", out)");
        }
    }

    private final Vertx vertx;
    private final Map<String, List<Backend>> backends = new LinkedHashMap<>();
    private final Map<String, AtomicInteger> next = new LinkedHashMap<>();
    private final HttpClient probes;
    private final long timer;

    /** @param ports service name -> its instances' ports (instance 1 first) */
    Balancer(Vertx vertx, Map<String, List<Integer>> ports) {
        this.vertx = vertx;
        ports.forEach((service, list) -> {
            List<Backend> bs = new ArrayList<>();
            for (int i = 0; i < list.size(); i++) {
                bs.add(new Backend(service, i + 1, list.get(i)));
            }
            backends.put(service, Collections.unmodifiableList(bs));
            next.put(service, new AtomicInteger());
        });
        this.probes = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(false).setConnectTimeout((int) PROBE_TIMEOUT_MS));
        this.timer = vertx.setPeriodic(PROBE_EVERY_MS, id -> probeAll());
    }

    boolean serves(String service) {
        return backends.containsKey(service);
    }

    List<Backend> backends(String service) {
        return backends.getOrDefault(service, List.of());
    }

    /** The order to try a service's instances in: the ready ones round robin, then the others (all may be out). */
    List<Backend> order(String service) {
        List<Backend> all = backends.get(service);
        int start = Math.floorMod(next.get(service).getAndIncrement(), all.size());
        List<Backend> ready = new ArrayList<>(all.size());
        List<Backend> out = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            Backend b = all.get((start + i) % all.size());
            (b.ready ? ready : out).add(b);
        }
        ready.addAll(out);
        return ready;
    }

    /**
     * Opens the request to one of the service's instances, trying the next one when connecting failed in a
     * way that allows it (see the class comment).
     */
    Future<HttpClientRequest> connect(HttpClient client, String service, HttpMethod method, long idleTimeoutMs) {
        return attempt(client, order(service), 0, method, idleTimeoutMs);
    }

    private Future<HttpClientRequest> attempt(HttpClient client, List<Backend> order, int i, HttpMethod method, long idleTimeoutMs) {
        Backend b = order.get(i);
        return client.request(new RequestOptions().setServer(SocketAddress.inetSocketAddress(b.port, "127.0.0.1"))
                        .setIdleTimeout(idleTimeoutMs))
                .recover(err -> {
                    boolean refused = refused(err);
                    if (refused) {
                        b.ready = false; // out at once; the readiness check takes it back
                    }
                    boolean again = i + 1 < order.size() && (refused || (retriable(method) && connectFailure(err)));
                    return again ? attempt(client, order, i + 1, method, idleTimeoutMs) : Future.failedFuture(err);
                });
    }

    static boolean retriable(HttpMethod method) {
        return HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method);
    }

    /** The connection was refused: nothing reached the service. */
    static boolean refused(Throwable err) {
        for (Throwable t = err; t != null; t = t.getCause()) {
            if (t instanceof ConnectException && String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT).contains("refused")) {
                return true;
            }
        }
        return false;
    }

    /** Connecting failed (refused, timed out, unreachable): the request was not sent. */
    static boolean connectFailure(Throwable err) {
        for (Throwable t = err; t != null; t = t.getCause()) {
            if (t instanceof ConnectException) {
                return true;
            }
        }
        return false;
    }

    private void probeAll() {
        backends.values().forEach(list -> list.forEach(this::probe));
    }

    private void probe(Backend b) {
        probes.request(new RequestOptions().setMethod(HttpMethod.GET).setHost("127.0.0.1").setPort(b.port)
                        .setURI("/q/health/ready").setTimeout(PROBE_TIMEOUT_MS))
                .compose(req -> req.send())
                .compose(res -> res.body().map(x -> res.statusCode()))
                .onComplete(ar -> b.ready = ar.succeeded() && ar.result() == 200);
    }

    @Override
    public void close() {
        vertx.cancelTimer(timer);
        probes.close();
    }
}
