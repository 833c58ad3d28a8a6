package dev.agentpay.commons.limits;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentpay.commons.auth.ApiKeys;
import dev.agentpay.commons.auth.PartnerRegistry;
import dev.agentpay.commons.events.EventHeader;
import dev.agentpay.commons.events.PartnerEvent;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The rate-limit filter on a real Vert.x router (no Quarkus): which bucket a request is charged to,
 * the headers every limited answer carries, the 429 envelope, the counters, and what is never limited.
 */
class RateLimitFilterTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private final Vertx vertx = Vertx.vertx();
    private final MeterRegistry meters = new SimpleMeterRegistry();
    private final PartnerRegistry registry = new PartnerRegistry();
    private int port;

    record Bucket(double rate, int burst) implements RateLimitConfig.Bucket {
    }

    record Config(boolean enabled, Bucket perKey, Bucket perAddress, List<String> trustedProxies,
            List<String> excludedPaths, long maxBuckets) implements RateLimitConfig {
    }

    @AfterEach
    void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** Starts a server whose every route is behind the filter; the rates are slow enough that nothing refills during a test. */
    private void start(List<String> trustedProxies) throws Exception {
        RateLimitFilter filter = new RateLimitFilter();
        filter.config = new Config(true, new Bucket(0.01, 3), new Bucket(0.01, 2), trustedProxies, List.of("/q/"), 1000);
        filter.registry = registry;
        filter.meters = meters;
        filter.init();
        Router router = Router.router(vertx);
        router.route().handler(filter::handle);
        router.route().handler(rc -> rc.response().end("ok"));
        HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        port = server.actualPort();
    }

    private HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private String partnerWithKey(String partnerId) {
        String key = ApiKeys.generate();
        registry.apply(new PartnerEvent(EventHeader.of(PartnerEvent.TYPE, partnerId, partnerId, Instant.now(),
                PartnerEvent.SCHEMA_VERSION), partnerId, PartnerEvent.ACTIVE, List.of(ApiKeys.hash(key))));
        return key;
    }

    private double rejected(String scope) {
        return meters.get("agentpay.rate_limit.rejected").tag("scope", scope).counter().count();
    }

    @Test
    void anAddressGetsItsBurstThenA429EnvelopeWithRetryAfter() throws Exception {
        start(List.of("10.0.0.0/8")); // the test client (127.0.0.1) is an outside address here
        HttpResponse<String> first = get("/v1/public/x");
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(first.headers().firstValue("RateLimit-Limit")).hasValue("2");
        assertThat(first.headers().firstValue("RateLimit-Remaining")).hasValue("1");
        assertThat(first.headers().firstValue("Retry-After")).isEmpty();
        assertThat(get("/v1/public/x").headers().firstValue("RateLimit-Remaining")).hasValue("0");

        HttpResponse<String> refused = get("/v1/public/y");
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(refused.headers().firstValue("RateLimit-Remaining")).hasValue("0");
        // 0.01 token/s: the next token is 100 s away
        assertThat(refused.headers().firstValue("Retry-After")).hasValue("100");
        assertThat(refused.body()).isEqualTo("{\"success\":false,\"error\":{\"code\":\"rate_limited\","
                + "\"message\":\"too many requests from this address; retry after 100 s\"}}");
        assertThat(rejected("address")).isEqualTo(1.0);
        assertThat(rejected("key")).isZero();
    }

    @Test
    void aValidKeyIsChargedToItsPartnerNotToTheAddress() throws Exception {
        start(List.of("10.0.0.0/8"));
        String alice = partnerWithKey("p_alice");
        String bob = partnerWithKey("p_bob");
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> r = get("/v1/mandates", "x-api-key", alice);
            assertThat(r.statusCode()).as("request %d", i).isEqualTo(200);
            assertThat(r.headers().firstValue("RateLimit-Limit")).hasValue("3");
        }
        HttpResponse<String> refused = get("/v1/mandates", "x-api-key", alice);
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.body()).contains("\"code\":\"rate_limited\"", "for this API key");
        assertThat(rejected("key")).isEqualTo(1.0);
        // another partner, and the same address without a key, each have their own bucket
        assertThat(get("/v1/mandates", "x-api-key", bob).statusCode()).isEqualTo(200);
        assertThat(get("/v1/mandates").statusCode()).isEqualTo(200);
    }

    @Test
    void anUnknownOrMalformedKeyIsLimitedByAddressSoKeyGuessingIsLimitedToo() throws Exception {
        start(List.of("10.0.0.0/8"));
        assertThat(get("/v1/mandates", "x-api-key", ApiKeys.generate()).statusCode()).isEqualTo(200);
        assertThat(get("/v1/mandates", "x-api-key", "not-a-key").statusCode()).isEqualTo(200);
        HttpResponse<String> refused = get("/v1/mandates", "x-api-key", ApiKeys.generate());
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.body()).contains("from this address");
        assertThat(rejected("address")).isEqualTo(1.0);
    }

    @Test
    void excludedPathsAreNeverLimitedNorCounted() throws Exception {
        start(List.of("10.0.0.0/8"));
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> r = get("/q/health/ready");
            assertThat(r.statusCode()).isEqualTo(200);
            assertThat(r.headers().firstValue("RateLimit-Limit")).isEmpty();
        }
        assertThat(get("/v1/public/x").headers().firstValue("RateLimit-Remaining"))
                .as("the health checks took nothing from the address's bucket").hasValue("1");
    }

    @Test
    void behindATrustedProxyEachForwardedClientHasItsOwnBucketAndInternalCallsAreFree() throws Exception {
        start(List.of("127.0.0.0/8"));
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> internal = get("/v1/invoices/x");
            assertThat(internal.statusCode()).isEqualTo(200);
            assertThat(internal.headers().firstValue("RateLimit-Limit")).as("internal call, not limited").isEmpty();
        }
        assertThat(get("/v1/x", "X-Forwarded-For", "198.51.100.1").statusCode()).isEqualTo(200);
        assertThat(get("/v1/x", "X-Forwarded-For", "198.51.100.1").statusCode()).isEqualTo(200);
        assertThat(get("/v1/x", "X-Forwarded-For", "198.51.100.1").statusCode()).isEqualTo(429);
        // a client cannot escape by prepending a forged hop: the right-most untrusted one counts
        assertThat(get("/v1/x", "X-Forwarded-For", "6.6.6.6, 198.51.100.1").statusCode()).isEqualTo(429);
        assertThat(get("/v1/x", "X-Forwarded-For", "198.51.100.2").statusCode()).isEqualTo(200);
    }

    @Test
    void theFilterIsRegisteredOnlyWhenEnabledAndBeforeQuarkusBodyChecks() {
        for (boolean enabled : new boolean[] {true, false}) {
            RateLimitFilter filter = new RateLimitFilter();
            filter.config = new Config(enabled, new Bucket(1, 1), new Bucket(1, 1), List.of(), List.of(), 10);
            io.quarkus.vertx.http.runtime.filters.Filters filters = new io.quarkus.vertx.http.runtime.filters.Filters();
            filter.register(filters);
            if (enabled) {
                assertThat(filters.getFilters()).singleElement()
                        .satisfies(f -> assertThat(f.getPriority()).isEqualTo(RateLimitFilter.PRIORITY));
            } else {
                assertThat(filters.getFilters()).isEmpty();
            }
        }
    }
}
