package dev.agentpay.mandate.signing;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** ECMAScript number formatting and JSON.parse rounding, against hand-picked cases and Node's output. */
class CanonicalNumberTest {

    @ParameterizedTest(name = "String({0}) = {1}")
    @CsvSource(delimiter = '|', value = {
        "0 | 0",
        "-0.0 | 0",
        "1 | 1",
        "-1 | -1",
        "100 | 100",
        "0.1 | 0.1",
        "-0.5 | -0.5",
        "0.30000000000000004 | 0.30000000000000004",
        "1e21 | 1e+21",
        "-1e21 | -1e+21",
        "1e20 | 100000000000000000000",
        "999999999999999999999 | 1e+21",
        "123456789012345678901234 | 1.2345678901234569e+23",
        "1.5e21 | 1.5e+21",
        "1e-6 | 0.000001",
        "1.5e-6 | 0.0000015",
        "1e-7 | 1e-7",
        "1.5e-7 | 1.5e-7",
        "123e-20 | 1.23e-18",
        "5e-324 | 5e-324",
        "4.9e-324 | 5e-324",
        "1.7976931348623157e308 | 1.7976931348623157e+308",
        "2.2250738585072014e-308 | 2.2250738585072014e-308",
        "9007199254740993 | 9007199254740992",
        "9007199254740995 | 9007199254740996",
        "18446744073709551616 | 18446744073709552000",
        // Java 17's Double.toString prints these with a superfluous digit; JavaScript does not.
        "2.82879384806159E17 | 282879384806159000",
        "2e23 | 2e+23",
        "1.0E23 | 1e+23",
        "8.41E21 | 8.41e+21",
        "4.35E-6 | 0.00000435",
        "5.0E-324 | 5e-324",
        "1.9999999999999998 | 1.9999999999999998",
        "123456.789 | 123456.789",
        "0.000001234 | 0.000001234",
        "0.0000001234 | 1.234e-7",
    })
    void formatsLikeNumberToString(String javaLiteral, String expected) {
        assertThat(EcmaNumber.toString(Double.parseDouble(javaLiteral))).isEqualTo(expected);
    }

    @Test
    void nonFiniteValues() {
        assertThat(EcmaNumber.toString(Double.NaN)).isEqualTo("NaN");
        assertThat(EcmaNumber.toString(Double.POSITIVE_INFINITY)).isEqualTo("Infinity");
        assertThat(EcmaNumber.toString(Double.NEGATIVE_INFINITY)).isEqualTo("-Infinity");
        assertThat(EcmaNumber.toJson(Double.POSITIVE_INFINITY)).isEqualTo("null");
        assertThat(EcmaNumber.toJson(Double.NEGATIVE_INFINITY)).isEqualTo("null");
        assertThat(EcmaNumber.toJson(-0.0)).isEqualTo("0");
    }

    @Test
    void termsNumbersAreParsedAsJavaScriptDoes() {
        assertThat(CanonicalMandate.canonicalTerms("{\"a\":1e400,\"b\":-1e400,\"c\":1e-400,\"d\":-0}"))
                .isEqualTo("{\"a\":null,\"b\":null,\"c\":0,\"d\":0}");
        assertThat(CanonicalMandate.canonicalTerms("{\"n\":1.50,\"m\":1E2,\"k\":0.1e1}"))
                .isEqualTo("{\"k\":1,\"m\":100,\"n\":1.5}");
        // A number longer than Jackson's default limit of 1000 characters is still a number in JavaScript.
        String longNumber = "1." + "0".repeat(2000) + "1";
        assertThat(CanonicalMandate.canonicalTerms("{\"n\":" + longNumber + "}")).isEqualTo("{\"n\":1}");
    }

    /** 2,000+ doubles and number texts printed by Node (random bits, exact midpoints, specials). */
    @Test
    void matchesNodeOnGeneratedNumbers() {
        List<JsonNode> numbers = CanonicalTestData.items("numbers.json");
        assertThat(numbers).hasSizeGreaterThan(2000);
        for (JsonNode n : numbers) {
            String text = n.get("text").asText();
            double parsed = Double.parseDouble(text);
            long bits = Long.parseUnsignedLong(n.get("bits").asText(), 16);
            assertThat(Double.doubleToRawLongBits(parsed)).as("JSON.parse(%s)", text).isEqualTo(bits);
            double x = Double.longBitsToDouble(bits);
            assertThat(EcmaNumber.toString(x)).as("String(%s)", text).isEqualTo(n.get("string").asText());
            assertThat(EcmaNumber.toJson(x)).as("JSON.stringify(%s)", text).isEqualTo(n.get("json").asText());
            assertThat(CanonicalMandate.canonicalTerms("{\"n\":" + text + "}"))
                    .as("terms with %s", text).isEqualTo("{\"n\":" + n.get("json").asText() + "}");
        }
    }
}
