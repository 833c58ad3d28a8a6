package dev.agentpay.discovery.mcp.service;

import dev.agentpay.discovery.config.DiscoveryConfig;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

/**
 * DNS-rebinding protection of the MCP endpoint (the MCP transport's security warning): a browser
 * page on a foreign site that resolves its name to this server still sends its own {@code Origin}
 * and {@code Host}. Requests from browsers must come from an allowed origin; every request must
 * name an allowed host. Non-browser clients send no {@code Origin} and pass on the host check.
 */
@ApplicationScoped
public class OriginGuard {

    private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "[::1]", "::1");

    @Inject
    DiscoveryConfig config;

    private final Set<String> origins = new HashSet<>();
    private final Set<String> hosts = new HashSet<>(LOOPBACK);

    @PostConstruct
    void init() {
        URI base = URI.create(config.publicBaseUrl());
        origins.add(origin(base));
        if (base.getHost() != null) {
            hosts.add(base.getHost().toLowerCase(Locale.ROOT));
        }
        config.mcp().allowedOrigins().ifPresent(l -> l.forEach(o -> origins.add(o.toLowerCase(Locale.ROOT).replaceAll("/+$", ""))));
        config.mcp().allowedHosts().ifPresent(l -> l.forEach(h -> hosts.add(h.toLowerCase(Locale.ROOT))));
    }

    /**
     * Why the request is refused, or {@code null} when it may proceed.
     *
     * @param host the request's host name without port (from Host or :authority)
     */
    public String refusal(String originHeader, String host) {
        String hostName = host == null ? null : host.toLowerCase(Locale.ROOT);
        if (hostName == null || !hosts.contains(hostName)) {
            return "Host not allowed";
        }
        if (originHeader == null) {
            return null;
        }
        String o = originHeader.trim().toLowerCase(Locale.ROOT);
        if (origins.contains(o)) {
            return null;
        }
        try {
            URI u = URI.create(o);
            if (u.getHost() != null && LOOPBACK.contains(u.getHost()) && LOOPBACK.contains(hostName)) {
                return null; // local tools (inspector, browsers on the developer's machine) talking to a local server
            }
        } catch (IllegalArgumentException e) {
            return "Origin not allowed";
        }
        return "Origin not allowed";
    }

    private static String origin(URI u) {
        String s = u.getScheme().toLowerCase(Locale.ROOT) + "://" + u.getHost().toLowerCase(Locale.ROOT);
        return u.getPort() > 0 ? s + ":" + u.getPort() : s;
    }
}
