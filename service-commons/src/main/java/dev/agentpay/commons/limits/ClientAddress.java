package dev.agentpay.commons.limits;

import io.netty.util.NetUtil;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * Who the client is, for per-address limits: the remote address, or, when the request comes from a
 * trusted proxy, the right-most {@code X-Forwarded-For} entry that is not itself a trusted proxy
 * (entries further left are written by the client and could be anything). Only IP literals are
 * parsed; nothing here ever resolves a name.
 */
public final class ClientAddress {

    /** Hops of {@code X-Forwarded-For} looked at, right to left; a longer chain is cut there. */
    static final int MAX_HOPS = 16;

    private final List<Cidr> trusted;

    public ClientAddress(List<String> trustedProxies) {
        this.trusted = trustedProxies.stream().map(String::trim).filter(s -> !s.isEmpty()).map(Cidr::parse).toList();
    }

    /**
     * @param remote the connection's peer address (may be null)
     * @param forwardedFor the {@code X-Forwarded-For} header (may be null)
     * @return a canonical address string, or {@code "unknown"}
     */
    public String resolve(String remote, String forwardedFor) {
        byte[] peer = parse(remote);
        if (peer == null) {
            return "unknown";
        }
        if (forwardedFor == null || forwardedFor.isBlank() || !isTrusted(peer)) {
            return canonical(peer);
        }
        String[] hops = forwardedFor.split(",");
        byte[] client = peer;
        for (int i = hops.length - 1, seen = 0; i >= 0 && seen < MAX_HOPS; i--, seen++) {
            byte[] hop = parse(hops[i].trim());
            if (hop == null) {
                // Garbage written by the client: the last proxy we believe is who we know.
                return canonical(client);
            }
            client = hop;
            if (!isTrusted(hop)) {
                break;
            }
        }
        return canonical(client);
    }

    /**
     * A call from a trusted address that names no client ({@code X-Forwarded-For} absent): one of our
     * own services, or the operator, on the internal network. Public traffic always arrives through
     * the gateway or Ingress, which adds the header.
     */
    public boolean isInternal(String remote, String forwardedFor) {
        byte[] peer = parse(remote);
        return peer != null && (forwardedFor == null || forwardedFor.isBlank()) && isTrusted(peer);
    }

    /** Whether {@code address} (an IP literal) is in the trusted list; false for anything that is not an IP literal. */
    public boolean trusts(String address) {
        byte[] a = parse(address);
        return a != null && isTrusted(a);
    }

    boolean isTrusted(byte[] address) {
        for (Cidr c : trusted) {
            if (c.contains(address)) {
                return true;
            }
        }
        return false;
    }

    /** IPv4 or IPv6 literal (IPv4-mapped IPv6 folded to IPv4), or null. */
    static byte[] parse(String s) {
        if (s == null || s.isEmpty() || s.length() > 64) {
            return null;
        }
        String literal = s.startsWith("[") && s.endsWith("]") ? s.substring(1, s.length() - 1) : s;
        byte[] b = NetUtil.createByteArrayFromIpAddressString(literal);
        if (b != null && b.length == 16 && isV4Mapped(b)) {
            byte[] v4 = new byte[4];
            System.arraycopy(b, 12, v4, 0, 4);
            return v4;
        }
        return b;
    }

    private static boolean isV4Mapped(byte[] b) {
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return b[10] == (byte) 0xff && b[11] == (byte) 0xff;
    }

    static String canonical(byte[] address) {
        try {
            return InetAddress.getByAddress(address).getHostAddress();
        } catch (UnknownHostException e) {
            return "unknown";
        }
    }

    /** An address block. */
    record Cidr(byte[] network, int prefix) {

        static Cidr parse(String s) {
            int slash = s.indexOf('/');
            byte[] net = ClientAddress.parse(slash < 0 ? s : s.substring(0, slash));
            if (net == null) {
                throw new IllegalArgumentException("platform.rate-limit.trusted-proxies: not an IP address or CIDR block: " + s);
            }
            int prefix = slash < 0 ? net.length * 8 : Integer.parseInt(s.substring(slash + 1));
            if (prefix < 0 || prefix > net.length * 8) {
                throw new IllegalArgumentException("platform.rate-limit.trusted-proxies: bad prefix length in " + s);
            }
            return new Cidr(net, prefix);
        }

        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            int full = prefix / 8;
            for (int i = 0; i < full; i++) {
                if (address[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xff << (8 - rest)) & 0xff;
            return (address[full] & mask) == (network[full] & mask);
        }
    }
}
