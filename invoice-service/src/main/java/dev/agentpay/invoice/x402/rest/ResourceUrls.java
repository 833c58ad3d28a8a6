package dev.agentpay.invoice.x402.rest;

import dev.agentpay.invoice.x402.config.X402Config;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.UriInfo;
import java.util.regex.Pattern;

/**
 * The public URL of a paid resource (the {@code resource} the payer signs for): the configured
 * public base URL, else the gateway's {@code X-Forwarded-Proto}/{@code X-Forwarded-Host}, else the
 * request's own URL. Forwarded values are checked for shape, so a client cannot inject a URL.
 */
@ApplicationScoped
public class ResourceUrls {

    private static final Pattern HOST = Pattern.compile("^[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?$|^\\[[0-9a-fA-F:.]+\\](:[0-9]{1,5})?$");

    @Inject
    X402Config config;

    public String of(UriInfo uri, String forwardedProto, String forwardedHost) {
        String path = uri.getRequestUri().getRawPath();
        String base = config.publicBaseUrl().map(String::trim).filter(s -> !s.isEmpty()).orElse(null);
        if (base != null) {
            return base.replaceAll("/+$", "") + path;
        }
        String host = first(forwardedHost);
        String proto = first(forwardedProto);
        if (host != null && HOST.matcher(host).matches()) {
            String scheme = "https".equalsIgnoreCase(proto) ? "https" : "http".equalsIgnoreCase(proto) ? "http" : uri.getRequestUri().getScheme();
            return scheme + "://" + host + path;
        }
        var u = uri.getRequestUri();
        return u.getScheme() + "://" + u.getRawAuthority() + path;
    }

    /** The client-most value of a possibly comma-separated forwarded header. */
    private static String first(String v) {
        if (v == null || v.isBlank()) {
            return null;
        }
        int comma = v.indexOf(',');
        return (comma < 0 ? v : v.substring(0, comma)).trim();
    }
}
