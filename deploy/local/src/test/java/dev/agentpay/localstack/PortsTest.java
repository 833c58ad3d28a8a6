package dev.agentpay.localstack;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The launcher asks for a dozen ports in a row; no two parts may get the same one. */
class PortsTest {

    @Test
    void freePortsAreNeverHandedOutTwiceAndAreBindable() {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 300; i++) {
            int p = Ports.free();
            assertThat(seen.add(p)).as("port %d handed out twice", p).isTrue();
            assertThat(Ports.isFree(p)).as("port %d is bindable", p).isTrue();
        }
    }

    @Test
    void aPreferredPortIsHandedOutOnceThenAnotherOne() {
        int preferred = Ports.free();
        // free() already handed it out: freeOr must not give it again
        assertThat(Ports.freeOr(preferred)).isNotEqualTo(preferred);
    }
}
