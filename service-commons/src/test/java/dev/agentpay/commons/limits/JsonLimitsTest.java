package dev.agentpay.commons.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The parser limits as a service's mapper gets them. */
class JsonLimitsTest {

    private final ObjectMapper mapper = customized();

    private static ObjectMapper customized() {
        ObjectMapper m = new ObjectMapper();
        new JsonLimits().customize(m);
        return m;
    }

    @Test
    void acceptsDepth32AndRefusesDepth33() throws Exception {
        assertThat(mapper.readTree("[".repeat(32) + "]".repeat(32)).isArray()).isTrue();
        assertThatThrownBy(() -> mapper.readTree("[".repeat(33) + "]".repeat(33)))
                .isInstanceOf(StreamConstraintsException.class);
        assertThatThrownBy(() -> mapper.readTree("{\"a\":".repeat(40) + "1" + "}".repeat(40)))
                .isInstanceOf(StreamConstraintsException.class);
    }

    @Test
    void refusesHugeNumbersButTakesUint256() throws Exception {
        String uint256Max = "115792089237316195423570985008687907853269984665640564039457584007913129639935";
        assertThat(mapper.readTree("{\"v\":" + uint256Max + "}").get("v").bigIntegerValue().bitLength()).isEqualTo(256);
        assertThatThrownBy(() -> mapper.readTree("{\"v\":1" + "0".repeat(100) + "}"))
                .isInstanceOf(StreamConstraintsException.class);
    }

    @Test
    void refusesOverlongNames() {
        assertThatThrownBy(() -> mapper.readTree("{\"" + "k".repeat(1025) + "\":1}"))
                .isInstanceOf(StreamConstraintsException.class);
    }
}
