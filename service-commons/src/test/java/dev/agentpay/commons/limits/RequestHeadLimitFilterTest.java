package dev.agentpay.commons.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** 414 and 431 with the error envelope (issue 33 item 5), on a real Vert.x server with the services' Netty limits. */
class RequestHeadLimitFilterTest {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final Vertx vertx = Vertx.vertx();
    private int port;

    @BeforeEach
    void start() throws Exception {
        RequestHeadLimitFilter filter = new RequestHeadLimitFilter();
        filter.maxUriLength = 4096;
        filter.maxHeaderBytes = 20480;
        Router router = Router.router(vertx);
        router.route().handler(filter::check);
        router.route().handler(rc -> rc.response().end("ok"));
        HttpServer server = vertx.createHttpServer(new HttpServerOptions().setMaxInitialLineLength(65536).setMaxHeaderSize(65536))
                .requestHandler(router).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        port = server.actualPort();
    }

    @AfterEach
    void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private HttpResponse<String> get(String path, String header) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        if (header != null) {
            b.header("X-Big", header);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aLongUriIs414WithTheEnvelope() throws Exception {
        HttpResponse<String> r = get("/v1/x?q=" + "a".repeat(5000), null);
        assertThat(r.statusCode()).isEqualTo(414);
        assertThat(r.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(r.body()).contains("\"success\":false").contains("\"code\":\"uri_too_long\"");
        assertThat(get("/v1/x?q=" + "a".repeat(3000), null).statusCode()).isEqualTo(200);
    }

    @Test
    void largeHeadersAre431WithTheEnvelope() throws Exception {
        HttpResponse<String> r = get("/v1/x", "h".repeat(30_000));
        assertThat(r.statusCode()).isEqualTo(431);
        assertThat(r.body()).contains("\"success\":false").contains("\"code\":\"headers_too_large\"");
        assertThat(get("/v1/x", "h".repeat(10_000)).statusCode()).isEqualTo(200);
    }
}
