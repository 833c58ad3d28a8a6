package dev.agentpay.webhook.delivery.client;

import dev.agentpay.webhook.config.WebhookConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;

/**
 * The SSRF guard: decides whether a host may receive deliveries. A host is refused when any address it
 * resolves to is not a public unicast address (loopback, private, shared, link-local, unique-local,
 * multicast, unspecified, reserved, IETF protocol assignments with Teredo, NAT64 local-use, discard-only,
 * or such an IPv4 address embedded in IPv6 through IPv4-mapped, NAT64 {@code 64:ff9b::/96} or 6to4). Checked when a
 * subscription is written and again before every attempt, because DNS answers change.
 */
@ApplicationScoped
public class TargetGuard {

    /** Why a target was refused. */
    public static final class RefusedTarget extends Exception {
        public RefusedTarget(String message) {
            super(message, null, false, false);
        }
    }

    @Inject
    WebhookConfig config;

    public boolean privateTargetsAllowed() {
        return config.allowPrivateTargets();
    }

    /** Resolves {@code host} (blocking) and refuses it unless every address is public. */
    public List<InetAddress> check(String host) throws RefusedTarget {
        if (config.allowPrivateTargets()) {
            return List.of();
        }
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(stripBrackets(host));
        } catch (UnknownHostException e) {
            throw new RefusedTarget("host does not resolve");
        }
        for (InetAddress a : addresses) {
            if (!isPublic(a)) {
                throw new RefusedTarget("host resolves to a non-public address");
            }
        }
        return Arrays.asList(addresses);
    }

    private static String stripBrackets(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** Whether a packet to this address would leave for the public internet. */
    public static boolean isPublic(InetAddress a) {
        if (a.isAnyLocalAddress() || a.isLoopbackAddress() || a.isLinkLocalAddress() || a.isSiteLocalAddress()
                || a.isMulticastAddress()) {
            return false;
        }
        byte[] b = a.getAddress();
        if (a instanceof Inet4Address) {
            return isPublicV4(b);
        }
        if (a instanceof Inet6Address) {
            return isPublicV6(b);
        }
        return false;
    }

    private static boolean isPublicV4(byte[] b) {
        int o0 = b[0] & 0xff;
        int o1 = b[1] & 0xff;
        int o2 = b[2] & 0xff;
        if (o0 == 0 || o0 == 10 || o0 == 127) {
            return false; // "this network", private, loopback
        }
        if (o0 == 100 && (o1 & 0xc0) == 64) {
            return false; // 100.64.0.0/10 carrier-grade NAT
        }
        if (o0 == 169 && o1 == 254) {
            return false; // link-local, cloud metadata
        }
        if (o0 == 172 && (o1 & 0xf0) == 16) {
            return false;
        }
        if (o0 == 192 && o1 == 168) {
            return false;
        }
        if (o0 == 192 && o1 == 0 && (o2 == 0 || o2 == 2)) {
            return false; // IETF protocol assignments, TEST-NET-1
        }
        if (o0 == 198 && (o1 & 0xfe) == 18) {
            return false; // benchmarking 198.18.0.0/15
        }
        if (o0 == 198 && o1 == 51 && o2 == 100 || o0 == 203 && o1 == 0 && o2 == 113) {
            return false; // TEST-NET-2, TEST-NET-3
        }
        return o0 < 224; // multicast 224/4 and reserved 240/4 (with broadcast)
    }

    private static boolean isPublicV6(byte[] b) {
        if ((b[0] & 0xfe) == 0xfc) {
            return false; // fc00::/7 unique local
        }
        if ((b[0] & 0xff) == 0xfe && (b[1] & 0xc0) == 0xc0) {
            return false; // fec0::/10 deprecated site-local
        }
        if ((b[0] & 0xff) == 0xff) {
            return false; // multicast
        }
        boolean first10Zero = true;
        for (int i = 0; i < 10; i++) {
            first10Zero &= b[i] == 0;
        }
        if (first10Zero && (b[10] & 0xff) == 0xff && (b[11] & 0xff) == 0xff) {
            return isPublicV4(Arrays.copyOfRange(b, 12, 16)); // ::ffff:a.b.c.d IPv4-mapped
        }
        if (first10Zero && b[10] == 0 && b[11] == 0) {
            return false; // ::/96 IPv4-compatible (deprecated), ::, ::1
        }
        if (b[0] == 0 && b[1] == 0x64 && (b[2] & 0xff) == 0xff && (b[3] & 0xff) == 0x9b) {
            // 64:ff9b::/96 well-known NAT64 prefix: what the embedded IPv4 address is (a DNS64 resolver on an
            // IPv6-only network answers there for every IPv4-only host, so public targets stay reachable).
            // 64:ff9b:1::/48 (RFC 8215, local-use translation to any network) and anything else in
            // 64:ff9b::/32 outside the /96: refused, its target cannot be told.
            for (int i = 4; i < 12; i++) {
                if (b[i] != 0) {
                    return false;
                }
            }
            return isPublicV4(Arrays.copyOfRange(b, 12, 16));
        }
        if (b[0] == 0x20 && b[1] == 0x02) {
            return isPublicV4(Arrays.copyOfRange(b, 2, 6)); // 2002::/16 6to4: the embedded IPv4 address
        }
        if (b[0] == 0x20 && b[1] == 0x01 && (b[2] & 0xfe) == 0) {
            // 2001::/23 IETF protocol assignments: Teredo 2001::/32 (tunnels to an IPv4 address and port
            // that cannot be checked here), ORCHID, benchmarking 2001:2::/48 and the rest
            return false;
        }
        if (b[0] == 0x01 && b[1] == 0 && b[2] == 0 && b[3] == 0 && b[4] == 0 && b[5] == 0 && b[6] == 0 && b[7] == 0) {
            return false; // 100::/64 discard-only
        }
        if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && (b[3] & 0xff) == 0xb8) {
            return false; // 2001:db8::/32 documentation
        }
        return true;
    }
}
