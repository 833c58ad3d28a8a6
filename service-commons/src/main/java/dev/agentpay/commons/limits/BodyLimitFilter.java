package dev.agentpay.commons.limits;

import dev.agentpay.commons.error.ErrorBody;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.StreamSupport;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Request body limits, per route, answered with the error envelope.
 *
 * <p>{@code quarkus.http.limits.max-body-size} is the ceiling: Quarkus buffers at most that much and
 * refuses more with an empty 413 before any resource runs. {@code platform.http.body-limits."<path
 * prefix>"} sets a smaller (or equal) limit for the paths under a prefix; the longest matching prefix
 * wins, a path no prefix matches gets the ceiling. A service that needs one large route (discovery's
 * benchmark publish) raises the ceiling and keeps every other route small with {@code "/"}.
 *
 * <p>A declared {@code Content-Length} over the route's limit is refused before the body is read. A body
 * without a length (chunked) is refused with 411 on a route whose limit is below the ceiling, because
 * Quarkus would buffer it up to the ceiling before anything could count it; on other routes Quarkus'
 * own check applies and a failure handler dresses its 413 the same way.
 *
 * <p>A prefix configured above {@value #ANONYMOUS_MAX} bytes is an admin route: a request with a body
 * there must carry the right {@code x-admin-key} before a byte of the body is read (401 otherwise), so
 * that no anonymous caller makes the service buffer megabytes.
 */
@ApplicationScoped
public class BodyLimitFilter {

    /** After the rate limiter, before Quarkus' own check (route order -2). */
    static final int PRIORITY = 200;

    static final String TOO_LARGE = "request body exceeds the limit of %d bytes";

    static final String LENGTH_REQUIRED = "send the body with a Content-Length (at most %d bytes on this route)";

    static final String PREFIXES = "platform.http.body-limits";

    /** The most an anonymous request may send anywhere (64 KiB). */
    public static final long ANONYMOUS_MAX = 64 * 1024;

    static final String UNAUTHORIZED = ErrorBody.json("unauthorized", "missing or invalid x-admin-key header");

    @jakarta.inject.Inject
    dev.agentpay.commons.auth.AuthConfig auth;

    @ConfigProperty(name = "quarkus.http.limits.max-body-size")
    Optional<MemorySize> maxBodySize;

    /** Per-path limits, longest prefix first, for a ceiling. */
    record Limits(long ceiling, List<Map.Entry<String, Long>> prefixes) {

        long limitFor(String path) {
            Map.Entry<String, Long> e = entryFor(path);
            return e == null ? ceiling : Math.min(e.getValue(), ceiling);
        }

        /** Whether the path's configured limit is above what anonymous callers may send. */
        boolean adminOnly(String path) {
            Map.Entry<String, Long> e = entryFor(path);
            return e != null && Math.min(e.getValue(), ceiling) > ANONYMOUS_MAX;
        }

        private Map.Entry<String, Long> entryFor(String path) {
            if (path != null) {
                for (Map.Entry<String, Long> e : prefixes) {
                    if (path.startsWith(e.getKey())) {
                        return e;
                    }
                }
            }
            return null;
        }

        static Limits of(long ceiling, Map<String, Long> byPrefix) {
            return new Limits(ceiling, byPrefix.entrySet().stream()
                    .sorted(Comparator.comparingInt((Map.Entry<String, Long> e) -> e.getKey().length()).reversed())
                    .map(e -> Map.entry(e.getKey(), e.getValue())).toList());
        }
    }

    void register(@Observes Filters filters) {
        maxBodySize.ifPresent(ceiling -> {
            Limits limits = Limits.of(ceiling.asLongValue(), configured(ConfigProvider.getConfig()));
            String admin = auth.adminKey().filter(k -> !k.isBlank()).orElse(null);
            filters.register(rc -> check(rc, limits, admin), PRIORITY);
        });
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

    static Map<String, Long> configured(Config config) {
        Map<String, Long> out = new java.util.HashMap<>();
        String prefix = PREFIXES + ".";
        for (String name : StreamSupport.stream(config.getPropertyNames().spliterator(), false).toList()) {
            if (name.startsWith(prefix)) {
                config.getOptionalValue(name, MemorySize.class).ifPresent(size -> out.put(stripQuotes(name, prefix), size.asLongValue()));
            }
        }
        return out;
    }

    private static String stripQuotes(String name, String prefix) {
        String path = name.substring(prefix.length());
        return path.length() >= 2 && path.startsWith("\"") && path.endsWith("\"") ? path.substring(1, path.length() - 1) : path;
    }

    static void check(RoutingContext rc, Limits limits, String adminKey) {
        long limit = limits.limitFor(rc.normalizedPath());
        String length = rc.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        boolean hasBody = length == null ? rc.request().headers().contains(HttpHeaders.TRANSFER_ENCODING) : !length.trim().equals("0");
        if (hasBody && limits.adminOnly(rc.normalizedPath()) && !adminKeyMatches(rc.request().getHeader("x-admin-key"), adminKey)) {
            refuse(rc, 401, UNAUTHORIZED);
            return;
        }
        if (length != null) {
            try {
                if (Long.parseLong(length.trim()) > limit) {
                    tooLarge(rc, limit);
                    return;
                }
            } catch (NumberFormatException e) {
                // The HTTP codec refuses a malformed length before we get here.
            }
        } else if (limit < limits.ceiling() && rc.request().headers().contains(HttpHeaders.TRANSFER_ENCODING)) {
            refuse(rc, 411, ErrorBody.json("length_required", String.format(LENGTH_REQUIRED, limit)));
            return;
        }
        rc.next();
    }

    static boolean adminKeyMatches(String sent, String expected) {
        return sent != null && expected != null && dev.agentpay.commons.auth.ApiKeys.constantTimeEquals(
                dev.agentpay.commons.auth.ApiKeys.hash(sent), dev.agentpay.commons.auth.ApiKeys.hash(expected));
    }

    static void tooLarge(RoutingContext rc, long limit) {
        refuse(rc, 413, ErrorBody.json("payload_too_large", String.format(TOO_LARGE, limit)));
    }

    private static void refuse(RoutingContext rc, int status, String body) {
        // The body is not read: close the connection rather than drain it.
        rc.response().setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader(HttpHeaders.CONNECTION, "close")
                .end(body);
    }
}
