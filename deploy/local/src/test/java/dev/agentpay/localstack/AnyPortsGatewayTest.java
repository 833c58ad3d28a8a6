package dev.agentpay.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** {@code --any-ports} never gives the gateway its default port 8080 (issue 33 item 8); {@code --gateway-port} still wins. */
class AnyPortsGatewayTest {

    @Test
    void anyPortsNeverTakesTheDefaultGatewayPort() {
        LocalStack.Options any = LocalStack.Options.parse(new String[] {"run", "--any-ports"});
        assertThat(any.gatewayPortGiven()).isFalse();
        for (int i = 0; i < 5; i++) {
            assertThat(LocalStack.gatewayPort(any)).isNotEqualTo(8080);
        }
    }

    @Test
    void anExplicitGatewayPortIsUsedWhenFree() throws Exception {
        int free;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            free = s.getLocalPort();
        }
        LocalStack.Options given = LocalStack.Options.parse(new String[] {"run", "--any-ports", "--gateway-port", Integer.toString(free)});
        assertThat(LocalStack.gatewayPort(given)).isEqualTo(free);
    }
}
