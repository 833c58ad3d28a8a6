package dev.agentpay.commons.limits;

import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Answers an over-size body ({@code quarkus.http.limits.max-body-size}) with the error envelope.
 * Quarkus itself refuses such a request with an empty 413 before any resource runs; this filter runs
 * just before that check with the same limit, and a failure handler dresses any later 413 (a chunked
 * body that grows past the limit) the same way.
 */
@ApplicationScoped
public class BodyLimitFilter {

    /** After the rate limiter, before Quarkus' own check (route order -2). */
    static final int PRIORITY = 200;

    static final String BODY = "{\"success\":false,\"error\":{\"code\":\"payload_too_large\","
            + "\"message\":\"request body exceeds the limit of %d bytes\"}}";

    @ConfigProperty(name = "quarkus.http.limits.max-body-size")
    Optional<MemorySize> maxBodySize;

    void register(@Observes Filters filters) {
        maxBodySize.ifPresent(limit -> filters.register(rc -> check(rc, limit.asLongValue()), PRIORITY));
    }

    void failures(@Observes Router router) {
        maxBodySize.ifPresent(limit -> router.route().order(Integer.MIN_VALUE + 1).failureHandler(rc -> {
            if (rc.statusCode() == 413 && !rc.response().ended() && !rc.response().headWritten()) {
                tooLarge(rc, limit.asLongValue());
            } else {
                rc.next();
            }
        }));
    }

    static void check(RoutingContext rc, long limit) {
        String length = rc.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null) {
            try {
                if (Long.parseLong(length.trim()) > limit) {
                    tooLarge(rc, limit);
                    return;
                }
            } catch (NumberFormatException e) {
                // The HTTP codec refuses a malformed length before we get here.
            }
        }
        rc.next();
    }

    static void tooLarge(RoutingContext rc, long limit) {
        // The body is not read: close the connection rather than drain it.
        rc.response().setStatusCode(413)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.CONNECTION, "close")
                .end(String.format(BODY, limit));
    }
}
