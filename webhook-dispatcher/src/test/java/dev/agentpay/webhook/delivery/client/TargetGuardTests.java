package dev.agentpay.webhook.delivery.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The SSRF address policy over literal addresses (no DNS involved). */
class TargetGuardTests {

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "127.8.9.10", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1",
            "169.254.169.254", "100.64.0.1", "0.0.0.0", "0.1.2.3", "224.0.0.1", "239.255.255.250", "255.255.255.255",
            "240.0.0.1", "198.18.0.1", "192.0.2.1", "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1",
            "fec0::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::127.0.0.1",
            "64:ff9b::a00:1", "2002:c0a8:0101::1", "2001:db8::1",
            // NAT64: the /96 with a private IPv4 inside, the local-use /48 whatever it embeds, the rest of the /32
            "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe", "64:ff9b:1::808:808", "64:ff9b:1:abcd::1", "64:ff9b:0:1::808:808",
            // Teredo 2001::/32 (even with a public-looking server), the rest of 2001::/23, discard-only 100::/64
            "2001::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2", "2001:2::1", "2001:10::1", "2001:1ff::1", "100::1",
            // 6to4 embedding loopback, link-local, CGNAT, multicast
            "2002:7f00:0001::1", "2002:a9fe:a9fe::1", "2002:6440:0001::1", "2002:e000:0001::1"})
    void refused(String literal) throws Exception {
        assertThat(TargetGuard.isPublic(InetAddress.getByName(literal))).as(literal).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"93.184.215.14", "8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111",
            "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:0808:0808::1", "2001:200::1", "2001:4860:4860::8888"})
    void allowed(String literal) throws Exception {
        assertThat(TargetGuard.isPublic(InetAddress.getByName(literal))).as(literal).isTrue();
    }
}
