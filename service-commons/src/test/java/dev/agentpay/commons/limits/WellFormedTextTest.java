package dev.agentpay.commons.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class WellFormedTextTest {

    private final ObjectMapper plain = new ObjectMapper();

    @Test
    void pairsAreFineLoneSurrogatesAreNot() {
        assertThat(WellFormedText.isWellFormed("agent \uD83D\uDE00 ok")).isTrue();
        assertThat(WellFormedText.isWellFormed("")).isTrue();
        assertThat(WellFormedText.isWellFormed("\uDB53\uA49B")).isFalse();
        assertThat(WellFormedText.isWellFormed("end\uD800")).isFalse();
        assertThat(WellFormedText.isWellFormed("\uDC00start")).isFalse();
        assertThat(WellFormedText.isWellFormed("\uDE00\uD83D")).isFalse(); // reversed pair
        assertThat(WellFormedText.isWellFormed("a\u0000b")).isFalse();
    }

    @Test
    void findsThePathOfTheFirstIllFormedString() throws Exception {
        assertThat(WellFormedText.firstIllFormed(plain.readTree("{\"a\":\"x\",\"b\":[1,\"\\ud83d\\ude00\"]}"), Set.of())).isNull();
        assertThat(WellFormedText.firstIllFormed(plain.readTree("{\"a\":\"x\",\"b\":[1,{\"c\":\"\\udb53z\"}]}"), Set.of()))
                .isEqualTo("b.1.c");
        assertThat(WellFormedText.firstIllFormed(plain.readTree("{\"\\ud800\":1}"), Set.of())).isEqualTo("field name");
        assertThat(WellFormedText.firstIllFormed(plain.readTree("{\"terms\":{\"k\":\"\\ud800\"},\"p\":\"ok\"}"), Set.of("terms")))
                .isNull();
        assertThat(WellFormedText.firstIllFormed(plain.readTree("\"\\udfff\""), Set.of())).isEmpty();
    }

    record Body(String url, List<String> events) {
    }

    @Test
    void theJacksonModuleRefusesBoundStringsNamingTheField() throws Exception {
        ObjectMapper m = new ObjectMapper();
        new JsonLimits().customize(m);
        assertThat(m.readValue("{\"url\":\"https://x/\\ud83d\\ude00\",\"events\":[\"a\"]}", Body.class).url())
                .isEqualTo("https://x/\uD83D\uDE00");
        assertThatThrownBy(() -> m.readValue("{\"url\":\"https://x/\\udb53\\ua49b\",\"events\":[]}", Body.class))
                .isInstanceOfSatisfying(InvalidFormatException.class, e -> {
                    assertThat(e.getPath().get(0).getFieldName()).isEqualTo("url");
                    assertThat(e.getTargetType()).isEqualTo(String.class);
                });
        assertThatThrownBy(() -> m.readValue("{\"url\":\"u\",\"events\":[\"ok\",\"\\ud800\"]}", Body.class))
                .isInstanceOf(InvalidFormatException.class);
    }

    @Test
    void nulInAUrlIsSpottedEncodedOrRaw() {
        assertThat(NulInUrlFilter.hasNul("/v1/mandates/mnd_%00")).isTrue();
        assertThat(NulInUrlFilter.hasNul("/v1/x?q=a%00b")).isTrue();
        assertThat(NulInUrlFilter.hasNul("/v1/x\u0000")).isTrue();
        assertThat(NulInUrlFilter.hasNul("/v1/mandates/mnd_%2500")).isFalse();
        assertThat(NulInUrlFilter.hasNul("/v1/x?q=100%")).isFalse();
        assertThat(NulInUrlFilter.hasNul("/v1/x%0")).isFalse();
    }
}
