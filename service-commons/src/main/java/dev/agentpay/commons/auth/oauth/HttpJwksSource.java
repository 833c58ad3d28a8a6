package dev.agentpay.commons.auth.oauth;

import dev.agentpay.commons.auth.AuthConfig;
import io.quarkus.arc.DefaultBean;
import io.smallrye.mutiny.Uni;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.ext.web.client.WebClient;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;

/** The issuer's JWK set over HTTP ({@code platform.auth.oauth.jwks-url}), non-blocking (Vert.x web client). */
@DefaultBean
@ApplicationScoped
public class HttpJwksSource implements JwksSource {

    /** A JWK set of a few keys is a few KiB; anything much larger is not ours. */
    static final int MAX_BYTES = 64 * 1024;

    @Inject
    AuthConfig config;

    @Inject
    Vertx vertx;

    private volatile WebClient client;

    @Override
    public Uni<String> fetch() {
        String url = config.oauth().jwksUrl().filter(u -> !u.isBlank()).orElse(null);
        if (url == null) {
            return Uni.createFrom().failure(new IllegalStateException("platform.auth.oauth.jwks-url is not set"));
        }
        return client().getAbs(url).timeout(5000).send()
                .ifNoItem().after(Duration.ofSeconds(6)).fail()
                .map(r -> {
                    if (r.statusCode() != 200) {
                        throw new IllegalStateException("JWK set answered HTTP " + r.statusCode());
                    }
                    String body = r.bodyAsString();
                    if (body == null || body.length() > MAX_BYTES) {
                        throw new IllegalStateException("JWK set missing or too large");
                    }
                    return body;
                });
    }

    private WebClient client() {
        WebClient c = client;
        if (c == null) {
            synchronized (this) {
                if (client == null) {
                    client = WebClient.create(vertx, new WebClientOptions().setConnectTimeout(3000).setMaxPoolSize(2));
                }
                c = client;
            }
        }
        return c;
    }

    @PreDestroy
    void close() {
        if (client != null) {
            client.close();
        }
    }
}
