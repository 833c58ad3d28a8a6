package dev.agentpay.commons.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** The platform's binding rules as a service's framework mapper gets them (the customizer, on Quarkus' defaults). */
class StrictJsonTest {

    private final ObjectMapper mapper = customized();

    /** Quarkus' mapper starts lenient about unknown fields ({@code quarkus.jackson.fail-on-unknown-properties=false}). */
    private static ObjectMapper customized() {
        ObjectMapper m = new ObjectMapper().disable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        new JsonLimits().customize(m);
        new StrictJson().customize(m);
        return m;
    }

    record Body(String name, BigDecimal amount, Long seconds, Boolean flag) {
    }

    @Test
    void bindsWhatIsDeclaredWithTheRightTypes() throws Exception {
        assertThat(mapper.readValue("{\"name\":\"n\",\"amount\":1.50,\"seconds\":60,\"flag\":true}", Body.class))
                .isEqualTo(new Body("n", new BigDecimal("1.50"), 60L, true));
    }

    @Test
    void refusesAFieldTheRecordDoesNotDeclare() {
        assertThatThrownBy(() -> mapper.readValue("{\"name\":\"n\",\"status\":\"SETTLED\"}", Body.class))
                .isInstanceOf(UnrecognizedPropertyException.class);
    }

    @Test
    void coercesNoScalar() {
        for (String doc : new String[] {"{\"name\":42}", "{\"name\":1.5}", "{\"name\":false}", "{\"amount\":\"10\"}",
                "{\"amount\":\"\"}", "{\"seconds\":\"60\"}", "{\"flag\":\"true\"}"}) {
            assertThatThrownBy(() -> mapper.readValue(doc, Body.class)).as(doc).isInstanceOf(MismatchedInputException.class)
                    .isNotInstanceOf(UnrecognizedPropertyException.class);
        }
        // without the rules each of these would bind (the default coerces), so the test can fail
        ObjectMapper lenient = new ObjectMapper();
        assertThat(catchBinding(lenient, "{\"amount\":\"10\"}")).isNull();
        assertThat(catchBinding(lenient, "{\"name\":42}")).isNull();
    }

    @Test
    void refusesContentAfterTheDocument() {
        assertThatThrownBy(() -> mapper.readValue("{\"name\":\"n\"} {\"name\":\"m\"}", Body.class))
                .isInstanceOf(MismatchedInputException.class);
        assertThatThrownBy(() -> mapper.readTree("{\"a\":1} x")).isInstanceOf(com.fasterxml.jackson.core.JsonProcessingException.class);
    }

    @Test
    void treesAreReadAsSent() throws Exception {
        // unknown fields and coercion concern typed binding only: a tree keeps every member and type
        assertThat(mapper.readTree("{\"x\":\"10\",\"y\":10,\"z\":{\"w\":true}}").toString())
                .isEqualTo("{\"x\":\"10\",\"y\":10,\"z\":{\"w\":true}}");
    }

    @Test
    void keepsThePlatformLimitsAndTextRules() {
        assertThatThrownBy(() -> mapper.readValue("{\"name\":\"a\",\"name\":\"b\"}", Body.class))
                .isInstanceOf(com.fasterxml.jackson.core.JsonParseException.class);
        assertThatThrownBy(() -> mapper.readValue("{\"name\":\"\\ud800\"}", Body.class)).isInstanceOf(InvalidFormatException.class);
    }

    private static Exception catchBinding(ObjectMapper m, String doc) {
        try {
            m.readValue(doc, Body.class);
            return null;
        } catch (Exception e) {
            return e;
        }
    }
}
