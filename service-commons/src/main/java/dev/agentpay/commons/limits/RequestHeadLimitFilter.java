package dev.agentpay.commons.limits;

import dev.agentpay.commons.error.ErrorBody;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A request line or header block over the platform's limits is answered with the error envelope:
 * {@code 414 uri_too_long} for a URI longer than {@code platform.http.max-uri-length} (4096 characters),
 * {@code 431 headers_too_large} for headers over {@code platform.http.max-header-bytes} (20 KiB, names and
 * values with their separators). Netty's own limits (which answer 414/431 without a body, and Quarkus offers
 * no hook to change that answer: quarkus#55082) are set well above these in service-commons
 * ({@code quarkus.http.limits.max-initial-line-length}, {@code max-header-size}: 64 KiB), so every request
 * between the platform's limit and Netty's gets the envelope; beyond 64 KiB the bare answer remains (the local
 * gateway and the Ingress, with smaller limits, answer such requests before they reach a service).
 */
@ApplicationScoped
public class RequestHeadLimitFilter {

    /** First of all: it needs nothing but the request head. */
    static final int PRIORITY = 500;

    static final String URI_TOO_LONG = ErrorBody.json("uri_too_long", "the request URI is too long");
    static final String HEADERS_TOO_LARGE = ErrorBody.json("headers_too_large", "the request headers are too large");

    @ConfigProperty(name = "platform.http.max-uri-length", defaultValue = "4096")
    int maxUriLength;

    @ConfigProperty(name = "platform.http.max-header-bytes", defaultValue = "20480")
    int maxHeaderBytes;

    void register(@Observes Filters filters) {
        filters.register(this::check, PRIORITY);
    }

    void check(RoutingContext rc) {
        int status = verdict(rc.request().uri(), rc.request().headers(), maxUriLength, maxHeaderBytes);
        if (status == 0) {
            rc.next();
            return;
        }
        rc.response().setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.CONNECTION, "close").end(status == 414 ? URI_TOO_LONG : HEADERS_TOO_LARGE);
    }

    /** 414, 431, or 0 when the head is within the limits. */
    static int verdict(String uri, Iterable<Map.Entry<String, String>> headers, int maxUri, int maxHeaders) {
        if (uri != null && uri.length() > maxUri) {
            return 414;
        }
        long size = 0;
        for (Map.Entry<String, String> h : headers) {
            size += h.getKey().length() + h.getValue().length() + 4;
            if (size > maxHeaders) {
                return 431;
            }
        }
        return 0;
    }
}
