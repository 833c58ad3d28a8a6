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

    @Test
    void refusesADuplicateKeyAtEveryDepth() throws Exception {
        for (String doc : new String[] {
                "{\"amount\":1,\"amount\":1000}",
                "{\"terms\":{\"amount\":1,\"amount\":1000}}",
                "{\"a\":[{\"b\":{\"chain\":\"base\",\"chain\":\"solana\"}}]}"}) {
            assertThatThrownBy(() -> mapper.readTree(doc)).as(doc)
                    .isInstanceOf(com.fasterxml.jackson.core.JsonParseException.class)
                    .satisfies(e -> assertThat(dev.agentpay.commons.error.ErrorMappers
                            .duplicateKey((com.fasterxml.jackson.core.JsonProcessingException) e)).startsWith("request body repeats the key \"")
                            .containsAnyOf("\"amount\"", "\"chain\""));
        }
        // the same key in sibling objects is no duplicate
        assertThat(mapper.readTree("[{\"a\":1},{\"a\":2}]").size()).isEqualTo(2);
        // records bound through the mapper are refused the same way
        assertThatThrownBy(() -> mapper.readValue("{\"v\":\"1\",\"v\":\"2\"}", java.util.Map.class))
                .isInstanceOf(com.fasterxml.jackson.core.JsonParseException.class);
    }

    @Test
    void newMapperReadsWithTheSameRules() {
        ObjectMapper own = JsonLimits.newMapper();
        assertThatThrownBy(() -> own.readTree("{\"x\":{\"k\":1,\"k\":2}}")).isInstanceOf(com.fasterxml.jackson.core.JsonParseException.class);
        assertThatThrownBy(() -> own.readTree("[".repeat(33) + "]".repeat(33))).isInstanceOf(StreamConstraintsException.class);
        assertThatThrownBy(() -> own.readTree("{\"v\":1" + "0".repeat(100) + "}")).isInstanceOf(StreamConstraintsException.class);
    }

    @Test
    void refusesAStringPastTheLimitAndTakesOneAtIt() throws Exception {
        String atLimit = "a".repeat(JsonLimits.DEFAULT_MAX_STRING_LENGTH);
        assertThat(mapper.readTree("{\"s\":\"" + atLimit + "\"}").get("s").textValue()).hasSize(1 << 20);
        assertThatThrownBy(() -> mapper.readTree("{\"s\":\"" + atLimit + "a\"}"))
                .isInstanceOf(StreamConstraintsException.class);
    }

    @Test
    void configuredLimitsReplaceTheDefaultsOneByOne() {
        org.eclipse.microprofile.config.Config config = new io.smallrye.config.SmallRyeConfigBuilder()
                .withSources(new io.smallrye.config.PropertiesConfigSource(java.util.Map.of(
                        "platform.json.max-nesting-depth", "4",
                        "platform.json.max-number-length", "10"), "test", 500))
                .build();
        com.fasterxml.jackson.core.StreamReadConstraints c = JsonLimits.constraints(config);
        assertThat(c.getMaxNestingDepth()).isEqualTo(4);
        assertThat(c.getMaxNumberLength()).isEqualTo(10);
        assertThat(c.getMaxStringLength()).as("not configured: the default").isEqualTo(JsonLimits.DEFAULT_MAX_STRING_LENGTH);
        assertThat(c.getMaxNameLength()).isEqualTo(JsonLimits.DEFAULT_MAX_NAME_LENGTH);

        ObjectMapper tight = new ObjectMapper();
        JsonLimits.apply(tight, config);
        assertThatThrownBy(() -> tight.readTree("[[[[[1]]]]]")).isInstanceOf(StreamConstraintsException.class);
        assertThatThrownBy(() -> tight.readTree("12345678901")).isInstanceOf(StreamConstraintsException.class);
        assertThatThrownBy(() -> tight.readTree("{\"k\":1,\"k\":2}")).as("duplicate keys stay refused")
                .isInstanceOf(com.fasterxml.jackson.core.JsonParseException.class);
    }

    @Test
    void withoutAnApplicationTheDefaultsApply() {
        com.fasterxml.jackson.core.StreamReadConstraints c = JsonLimits.constraints(null);
        assertThat(c.getMaxNestingDepth()).isEqualTo(32);
        assertThat(c.getMaxNumberLength()).isEqualTo(100);
        assertThat(c.getMaxStringLength()).isEqualTo(1 << 20);
        assertThat(c.getMaxNameLength()).isEqualTo(1024);
    }
}
