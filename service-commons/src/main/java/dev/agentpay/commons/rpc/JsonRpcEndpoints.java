package dev.agentpay.commons.rpc;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * One {@link JsonRpcHttp} per endpoint URL, made on first use and closed together: for clients that are
 * given the URL with each call (invoice-service's reconciler clients, whose URLs come from the chain table).
 */
public final class JsonRpcEndpoints implements AutoCloseable {

    private final Function<String, JsonRpcHttp> open;
    private final Map<String, JsonRpcHttp> byUrl = new ConcurrentHashMap<>();

    /** {@code open} makes the transport of a URL not seen before. */
    public JsonRpcEndpoints(Function<String, JsonRpcHttp> open) {
        this.open = open;
    }

    public JsonRpcHttp at(String url) {
        return byUrl.computeIfAbsent(url, open);
    }

    @Override
    public void close() {
        byUrl.values().forEach(JsonRpcHttp::close);
        byUrl.clear();
    }
}
