package dev.agentpay.commons.limits;

import dev.agentpay.commons.error.ErrorBody;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Refuses a URL carrying a NUL character ({@code %00}) with {@code 400 invalid_url} before any
 * resource runs. A decoded path or query parameter reaches SQL as text, and PostgreSQL refuses NUL
 * in text, so such an id would otherwise fail the query (a 500) instead of being "not found". No
 * identifier or parameter of this API can contain NUL, so nothing legitimate is refused.
 */
@ApplicationScoped
public class NulInUrlFilter {

    /** Before the rate limiter (300) and the body limit (200): it costs nothing and needs no state. */
    static final int PRIORITY = 400;

    static final String BODY = ErrorBody.json("invalid_url", "the URL contains a NUL character (%00)");

    void register(@Observes Filters filters) {
        filters.register(NulInUrlFilter::check, PRIORITY);
    }

    static void check(RoutingContext rc) {
        String uri = rc.request().uri();
        if (uri != null && hasNul(uri)) {
            rc.response().setStatusCode(400).putHeader(HttpHeaders.CONTENT_TYPE, "application/json").end(BODY);
            return;
        }
        rc.next();
    }

    static boolean hasNul(String uri) {
        for (int i = uri.indexOf('%'); i >= 0 && i + 2 < uri.length(); i = uri.indexOf('%', i + 1)) {
            if (uri.charAt(i + 1) == '0' && uri.charAt(i + 2) == '0') {
                return true;
            }
        }
        return uri.indexOf('\u0000') >= 0;
    }
}
