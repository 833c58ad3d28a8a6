package dev.agentpay.invoice.x402.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentpay.invoice.x402.config.X402Config;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.ext.web.client.HttpResponse;
import io.vertx.mutiny.ext.web.client.WebClient;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jboss.logging.Logger;

/**
 * The one door to the x402 facilitator ({@code /verify}, {@code /settle}): timeouts, retries with
 * back-off, the optional authentication header, and the mapping of every failure to either
 * {@link Rejected} (the facilitator judged the payment) or {@link Unavailable} (it could not be asked).
 *
 * <p>{@code /verify} has no effect and is retried on any outage. {@code /settle} moves money, so it is
 * retried only when the request provably never reached the facilitator (connection refused); after a
 * timeout or a 5xx the outcome is unknown and reported as such, never retried blindly.
 */
@ApplicationScoped
public class FacilitatorClient {

    private static final Logger LOG = Logger.getLogger(FacilitatorClient.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The facilitator answered 4xx: it refused the request itself (malformed or unpayable payment). */
    public static final class Rejected extends RuntimeException {
        public Rejected(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * The facilitator could not be asked or gave no usable answer. {@code outcomeUnknown}: a settle may
     * have happened (the request was sent, no answer came back).
     */
    public static final class Unavailable extends RuntimeException {
        private final boolean outcomeUnknown;

        public Unavailable(String message, boolean outcomeUnknown) {
            super(message, null, false, false);
            this.outcomeUnknown = outcomeUnknown;
        }

        public boolean outcomeUnknown() {
            return outcomeUnknown;
        }
    }

    /** Not sent at all: safe to retry even for settle. */
    private static final class NotSent extends RuntimeException {
        NotSent(Throwable cause) {
            super(cause.toString(), cause, false, false);
        }
    }

    @Inject
    X402Config config;

    @Inject
    Vertx vertx;

    @Inject
    MeterRegistry meters;

    private final Map<String, Timer> timers = new ConcurrentHashMap<>();

    private WebClient client;

    private synchronized WebClient client() {
        if (client == null) {
            client = WebClient.create(vertx, new WebClientOptions().setKeepAlive(true).setMaxPoolSize(32)
                    .setConnectTimeout(2000).setUserAgent("agentpay-invoice-service/x402"));
        }
        return client;
    }

    @PreDestroy
    void close() {
        if (client != null) {
            client.close();
        }
    }

    /** {@code POST /verify}: the facilitator's {@code {isValid, invalidReason, payer}}. */
    public Uni<JsonNode> verify(int x402Version, ObjectNode paymentPayload, ObjectNode paymentRequirements) {
        return post("/verify", body(x402Version, paymentPayload, paymentRequirements), config.facilitator().verifyTimeout())
                .onFailure(t -> t instanceof NotSent || t instanceof Unavailable)
                .retry().withBackOff(config.facilitator().backoff(), config.facilitator().backoff().multipliedBy(8))
                .withJitter(0.2).atMost(config.facilitator().retries())
                .onFailure(NotSent.class).transform(t -> new Unavailable("facilitator unreachable: " + t.getMessage(), false));
    }

    /** {@code POST /settle}: the facilitator's {@code {success, errorReason, transaction, network, payer}}. */
    public Uni<JsonNode> settle(int x402Version, ObjectNode paymentPayload, ObjectNode paymentRequirements) {
        return post("/settle", body(x402Version, paymentPayload, paymentRequirements), config.facilitator().settleTimeout())
                .onFailure(NotSent.class)
                .retry().withBackOff(config.facilitator().backoff(), config.facilitator().backoff().multipliedBy(8))
                .withJitter(0.2).atMost(config.facilitator().retries())
                .onFailure(NotSent.class).transform(t -> new Unavailable("facilitator unreachable: " + t.getMessage(), false));
    }

    private static ObjectNode body(int version, ObjectNode payload, ObjectNode requirements) {
        ObjectNode b = JSON.createObjectNode();
        b.put("x402Version", version);
        b.set("paymentPayload", payload);
        b.set("paymentRequirements", requirements);
        return b;
    }

    private Uni<JsonNode> post(String path, ObjectNode body, Duration timeout) {
        String base = config.facilitator().url().map(String::trim).filter(s -> !s.isEmpty()).orElse(null);
        if (base == null) {
            return Uni.createFrom().failure(new Unavailable("no facilitator is configured (X402_FACILITATOR_URL)", false));
        }
        URI uri = URI.create(base.replaceAll("/+$", "") + path);
        int port = uri.getPort() > 0 ? uri.getPort() : ("https".equals(uri.getScheme()) ? 443 : 80);
        var req = client().post(port, uri.getHost(), uri.getRawPath())
                .ssl("https".equals(uri.getScheme()))
                .timeout(timeout.toMillis())
                .putHeader(HttpHeaders.CONTENT_TYPE.toString(), "application/json")
                .putHeader(HttpHeaders.ACCEPT.toString(), "application/json");
        if (config.facilitator().authHeader().isPresent() && config.facilitator().authValue().isPresent()) {
            req.putHeader(config.facilitator().authHeader().get(), config.facilitator().authValue().get());
        }
        Buffer payload = Buffer.buffer(body.toString());
        return Uni.createFrom().deferred(() -> {
            long t0 = System.nanoTime();
            return req.sendBuffer(payload)
                    .onTermination().invoke((r, t, c) -> timer(path, t == null ? "answered" : "failed")
                            .record(System.nanoTime() - t0, TimeUnit.NANOSECONDS));
        })
                .onFailure().transform(t -> classify(path, t))
                .map(r -> answer(path, r));
    }

    /** {@code x402.facilitator}: one request's round trip as seen from here (retries are separate requests). */
    private Timer timer(String path, String outcome) {
        return timers.computeIfAbsent(path + " " + outcome, k -> Timer.builder("x402.facilitator")
                .description("round trip of one request to the x402 facilitator")
                .tag("path", path).tag("outcome", outcome)
                .publishPercentiles(0.5, 0.9, 0.99).register(meters));
    }

    private static RuntimeException classify(String path, Throwable t) {
        if (t instanceof ConnectException || (t.getCause() instanceof ConnectException)) {
            return new NotSent(t);
        }
        boolean timeout = t instanceof TimeoutException || t.getClass().getSimpleName().contains("Timeout");
        LOG.warnf("facilitator %s failed: %s", path, t.toString());
        return new Unavailable("facilitator " + path + (timeout ? " timed out" : " failed: " + t.getMessage()), true);
    }

    private static JsonNode answer(String path, HttpResponse<Buffer> r) {
        String text = r.bodyAsString();
        if (r.statusCode() >= 500) {
            LOG.warnf("facilitator %s answered %d", path, r.statusCode());
            throw new Unavailable("facilitator " + path + " answered HTTP " + r.statusCode(), true);
        }
        JsonNode json;
        try {
            json = text == null || text.isBlank() ? null : JSON.readTree(text);
        } catch (IOException e) {
            json = null;
        }
        if (r.statusCode() >= 400) {
            String why = json != null && json.hasNonNull("error") ? json.get("error").asText() : "HTTP " + r.statusCode();
            throw new Rejected(why.length() > 300 ? why.substring(0, 300) : why);
        }
        if (json == null || !json.isObject()) {
            throw new Unavailable("facilitator " + path + " answered no JSON object", true);
        }
        return json;
    }
}
