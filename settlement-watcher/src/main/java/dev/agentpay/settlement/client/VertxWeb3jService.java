package dev.agentpay.settlement.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentpay.commons.rpc.JsonRpcHttp;
import io.reactivex.Flowable;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.web3j.protocol.ObjectMapperFactory;
import org.web3j.protocol.Web3jService;
import org.web3j.protocol.core.BatchRequest;
import org.web3j.protocol.core.BatchResponse;
import org.web3j.protocol.core.Request;
import org.web3j.protocol.core.Response;
import org.web3j.protocol.websocket.events.Notification;

/**
 * web3j's requests and response types over the platform's non-blocking transport ({@link JsonRpcHttp#post}):
 * web3j builds and decodes the JSON-RPC messages, Vert.x carries them. Only the asynchronous path exists:
 * {@link #call} (a {@link Uni}) and {@link #sendAsync}; the blocking {@code send}, batches and
 * subscriptions are refused, so nothing in the watcher can block on a chain by accident.
 */
public final class VertxWeb3jService implements Web3jService {

    private static final ObjectMapper MAPPER = ObjectMapperFactory.getObjectMapper();
    private final JsonRpcHttp http;

    public VertxWeb3jService(JsonRpcHttp http) {
        this.http = http;
    }

    /** web3j over a transport of its own to {@code rpcUrl}, each call bounded by {@code timeout}. */
    public static VertxWeb3jService to(Vertx vertx, String rpcUrl, Duration timeout) {
        return new VertxWeb3jService(new JsonRpcHttp(vertx, rpcUrl, timeout, EvmClient.USER_AGENT));
    }

    /** Sends one request; emits its decoded response (which may carry a JSON-RPC error) or a transport failure. */
    public <T extends Response<?>> Uni<T> call(Request<?, T> request) {
        return Uni.createFrom().item(() -> write(request))
                .flatMap(http::post)
                .map(bytes -> read(bytes, request.getResponseType()));
    }

    private static byte[] write(Request<?, ?> request) {
        try {
            return MAPPER.writeValueAsBytes(request);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static <T> T read(byte[] bytes, Class<T> type) {
        try {
            return MAPPER.readValue(bytes, type);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public <T extends Response> CompletableFuture<T> sendAsync(Request request, Class<T> responseType) {
        return (CompletableFuture<T>) call((Request<?, Response<?>>) request).subscribeAsCompletionStage();
    }

    @Override
    @SuppressWarnings("rawtypes")
    public <T extends Response> T send(Request request, Class<T> responseType) {
        throw new UnsupportedOperationException("blocking JSON-RPC is not used here: call(request)");
    }

    @Override
    public BatchResponse sendBatch(BatchRequest requests) {
        throw new UnsupportedOperationException("batches are not used");
    }

    @Override
    public CompletableFuture<BatchResponse> sendBatchAsync(BatchRequest requests) {
        throw new UnsupportedOperationException("batches are not used");
    }

    @Override
    public <T extends Notification<?>> Flowable<T> subscribe(Request request, String unsubscribeMethod, Class<T> responseType) {
        throw new UnsupportedOperationException("subscriptions are not used");
    }

    @Override
    public void close() {
        http.close();
    }
}
