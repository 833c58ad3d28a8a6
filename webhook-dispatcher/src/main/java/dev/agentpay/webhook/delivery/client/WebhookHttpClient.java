package dev.agentpay.webhook.delivery.client;

import dev.agentpay.webhook.config.WebhookConfig;
import dev.agentpay.webhook.delivery.client.TargetGuard;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.mutiny.core.MultiMap;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.ext.web.client.WebClient;
import io.vertx.mutiny.ext.web.codec.BodyCodec;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.Map;

/**
 * The one HTTP client of the dispatcher: owns the Vert.x WebClient, its timeouts, the refusal to follow
 * redirects, the delivery-time SSRF check and the mapping of every outcome to a {@link Response}. It
 * never throws: connection errors and timeouts come back as a response without status.
 */
@ApplicationScoped
public class WebhookHttpClient {

    /** What one POST produced. {@code status} is null when no HTTP response arrived. */
    public record Response(Integer status, String retryAfter, String error) {
    }

    @Inject
    Vertx vertx;
    @Inject
    WebhookConfig config;
    @Inject
    TargetGuard guard;

    private WebClient client;

    @PostConstruct
    void init() {
        WebClientOptions options = new WebClientOptions()
                .setUserAgent("agentpay-webhooks/0.1")
                .setFollowRedirects(false)
                .setConnectTimeout((int) config.delivery().connectTimeout().toMillis())
                .setKeepAlive(true)
                .setTcpNoDelay(true)
                // Connections are pooled per origin; the per-subscription limit is enforced by the claim.
                .setMaxPoolSize(config.delivery().maxInFlight())
                .setTryUseCompression(false)
                .setVerifyHost(true);
        client = WebClient.create(vertx, options);
    }

    @PreDestroy
    void close() {
        client.close();
    }

    /** POSTs {@code body} to {@code url} with {@code headers}; checks the target's addresses first. */
    public Uni<Response> post(String url, Buffer body, Map<String, String> headers) {
        URI uri = URI.create(url);
        Uni<Void> checked = guard.privateTargetsAllowed() ? Uni.createFrom().voidItem()
                : Uni.createFrom().item(() -> {
                    try {
                        guard.check(uri.getHost());
                        return (Void) null;
                    } catch (TargetGuard.RefusedTarget e) {
                        throw new RefusedException(e.getMessage());
                    }
                }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
        long timeout = config.delivery().timeout().toMillis();
        return checked.flatMap(v -> {
                    MultiMap h = MultiMap.caseInsensitiveMultiMap();
                    headers.forEach(h::set);
                    RequestOptions ro = new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(url);
                    return client.request(HttpMethod.POST, ro)
                            .putHeaders(h)
                            .timeout(timeout)
                            .as(BodyCodec.none())
                            .sendBuffer(body);
                })
                .ifNoItem().after(config.delivery().timeout()).fail()
                .map(r -> new Response(r.statusCode(), r.getHeader("Retry-After"), null))
                .onFailure().recoverWithItem(e -> new Response(null, null, describe(e)));
    }

    private static String describe(Throwable e) {
        if (e instanceof RefusedException) {
            return "target refused: " + e.getMessage();
        }
        if (e instanceof io.smallrye.mutiny.TimeoutException || e instanceof java.util.concurrent.TimeoutException
                || e.getClass().getSimpleName().contains("Timeout")) {
            return "timeout";
        }
        String m = e.getMessage();
        String text = e.getClass().getSimpleName() + (m == null ? "" : ": " + m);
        return text.length() > 500 ? text.substring(0, 500) : text;
    }

    private static final class RefusedException extends RuntimeException {
        RefusedException(String message) {
            super(message, null, false, false);
        }
    }
}
