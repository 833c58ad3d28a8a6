package dev.agentpay.mandate.signing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Rules of the canonical encoding that the generated vectors do not reach: refusals, limits, dates. */
class CanonicalMandateTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "", " ", "null", "[]", "[{}]", "\"text\"", "42", "true",
        "{", "{\"a\":1", "{\"a\":1,}", "{\"a\" 1}", "{a:1}", "{'a':1}", "{\"a\":01}", "{\"a\":+1}", "{\"a\":.5}",
        "{\"a\":1.}", "{\"a\":NaN}", "{\"a\":Infinity}", "{\"a\":-Infinity}", "{\"a\":undefined}",
        "{\"a\":\"\u0001\"}", "{\"a\":\"tab\there\"}", "{\"a\":\"\\x41\"}", "{\"a\":\"\\u12\"}", "{\"a\":1}/* c */",
        "{\"a\":1} {}", "{\"a\":1}x", "\uFEFF{}", "{\"a\":[1,]}", "{\"a\":[,1]}", "{\"a\":0x10}", "{\"a\":1e}",
    })
    void refusesAnythingButOneJsonObject(String text) {
        assertThatThrownBy(() -> CanonicalMandate.canonicalTerms(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("terms ");
    }

    @Test
    void refusesNull() {
        assertThatThrownBy(() -> CanonicalMandate.canonicalTerms((String) null))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("terms is required");
        assertThatThrownBy(() -> CanonicalMandate.canonicalTerms(CanonicalTestData.MAPPER.readTree("[1]")))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("terms must be a JSON object");
    }

    @Test
    void nonObjectTermsNameTheProblem() {
        assertThatThrownBy(() -> CanonicalMandate.canonicalTerms("[1,2]")).hasMessage("terms must be a JSON object");
        assertThatThrownBy(() -> CanonicalMandate.canonicalTerms("{\"a\":NaN}")).hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> CanonicalMandate.canonicalTerms("{} {}")).hasMessageContaining("single JSON object");
    }

    @Test
    void acceptsThirtyTwoLevelsAndRefusesThirtyThree() throws Exception {
        assertThat(CanonicalMandate.canonicalTerms(nestedObjects(32))).isEqualTo(nestedObjects(32));
        assertThat(CanonicalMandate.canonicalTerms(nestedArrays(32))).isEqualTo(nestedArrays(32));
        for (String deep : new String[] {nestedObjects(33), nestedArrays(33), nestedArrays(5000)}) {
            assertThatThrownBy(() -> CanonicalMandate.canonicalTerms(deep))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("terms nests deeper than 32 levels");
        }
        assertThatThrownBy(() -> CanonicalMandate.canonicalTerms(CanonicalTestData.MAPPER.readTree(nestedObjects(33))))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("terms nests deeper than 32 levels");
    }

    @Test
    void refusesProtoKeysAtAnyLevel() {
        for (String text : new String[] {"{\"__proto__\":{}}", "{\"a\":[{\"__proto__\":1}]}", "{\"__pr\\u006fto__\":1}"}) {
            assertThatThrownBy(() -> CanonicalMandate.canonicalTerms(text))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("__proto__");
        }
    }

    @Test
    void keyOrderIsArrayIndicesThenUtf16CodeUnits() {
        assertThat(CanonicalMandate.canonicalTerms(
                "{\"b\":0,\"10\":0,\"2\":0,\"4294967295\":0,\"4294967294\":0,\"01\":0,\"\uffff\":0,\"\ud83d\ude00\":0,\"B\":0}"))
                .isEqualTo("{\"2\":0,\"10\":0,\"4294967294\":0,\"01\":0,\"4294967295\":0,\"B\":0,\"b\":0,\"\ud83d\ude00\":0,\"\uffff\":0}");
        assertThat(CanonicalJson.isArrayIndex("0")).isTrue();
        assertThat(CanonicalJson.isArrayIndex("4294967294")).isTrue();
        assertThat(CanonicalJson.isArrayIndex("4294967295")).isFalse();
        assertThat(CanonicalJson.isArrayIndex("00")).isFalse();
        assertThat(CanonicalJson.isArrayIndex("-1")).isFalse();
        assertThat(CanonicalJson.isArrayIndex("")).isFalse();
        assertThat(CanonicalJson.isArrayIndex("99999999999")).isFalse();
    }

    @Test
    void stringsAreEscapedAsJsonStringifyDoes() {
        StringBuilder out = new StringBuilder();
        CanonicalJson.quote(out, "\"\\/\b\f\n\r\t\u0000\u001f\u007f\u2028\u00e9\ud83d\ude00\ud800x\udc00\udc00\ud800");
        assertThat(out.toString()).isEqualTo(
                "\"\\\"\\\\/\\b\\f\\n\\r\\t\\u0000\\u001f\u007f\u2028\u00e9\ud83d\ude00\\ud800x\\udc00\\udc00\\ud800\"");
    }

    @Test
    void duplicateKeysKeepTheLastValue() {
        assertThat(CanonicalMandate.canonicalTerms("{\"a\":1,\"b\":{\"c\":1},\"a\":[2],\"b\":3}"))
                .isEqualTo("{\"a\":[2],\"b\":3}");
    }

    @Test
    void bytesHaveTheSpecifiedShape() {
        byte[] bytes = CanonicalMandate.bytes("agt_c", Instant.parse("2030-01-02T03:04:05.678901Z"), "mnd_1", "agt_p",
                "purchase", CanonicalMandate.canonicalTerms("{\"b\":1,\"a\":\"\u00e9\"}"));
        assertThat(new String(bytes, StandardCharsets.UTF_8)).isEqualTo("{\"counterparty_agent_id\":\"agt_c\","
                + "\"expires_at\":\"2030-01-02T03:04:05.678Z\",\"id\":\"mnd_1\",\"proposer_agent_id\":\"agt_p\","
                + "\"scope\":\"purchase\",\"terms\":{\"a\":\"\u00e9\",\"b\":1}}");
        assertThatThrownBy(() -> CanonicalMandate.bytes(null, Instant.EPOCH, "i", "p", "s", "{}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("counterparty_agent_id is required");
        assertThatThrownBy(() -> CanonicalMandate.bytes("c", null, "i", "p", "s", "{}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("expires_at is required");
    }

    @Test
    void hmacAndHashAreKnownAnswers() {
        // RFC 4231 test case 2: key "Jefe".
        byte[] data = "what do ya want for nothing?".getBytes(StandardCharsets.UTF_8);
        assertThat(CanonicalMandate.hmacHex(data, "Jefe"))
                .isEqualTo("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
        assertThat(CanonicalMandate.mandateHash("abc".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("0xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "zz", "0", "5bdcc146", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec384",
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec38433",
        "5BDCC146BF60754E6A042426089575C75A003F089D2739839DEC58B964EC3843",
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec384g",
        " 5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
        "0x5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"})
    void malformedSignaturesAreRefusedWithoutError(String signature) {
        byte[] data = "what do ya want for nothing?".getBytes(StandardCharsets.UTF_8);
        assertThat(CanonicalMandate.verify(data, "Jefe", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"))
                .isTrue();
        assertThat(CanonicalMandate.verify(data, "Jefe", signature)).isFalse();
        assertThat(CanonicalMandate.verify(data, "Jefe", null)).isFalse();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "1970-01-01T00:00:00Z, 1970-01-01T00:00:00.000Z",
        "2030-06-15T12:30:45.123456789Z, 2030-06-15T12:30:45.123Z",
        "-0001-12-31T23:59:59.999Z, -000001-12-31T23:59:59.999Z",
        "+10000-01-01T00:00:00Z, +010000-01-01T00:00:00.000Z",
        "0000-01-01T00:00:00Z, 0000-01-01T00:00:00.000Z",
        "1969-12-31T23:59:59.999500Z, 1969-12-31T23:59:59.999Z",
        "+275760-09-13T00:00:00Z, +275760-09-13T00:00:00.000Z",
        "-271821-04-20T00:00:00Z, -271821-04-20T00:00:00.000Z",
    })
    void isoMillisIsToIsoString(String instant, String expected) {
        assertThat(CanonicalMandate.isoMillis(Instant.parse(instant))).isEqualTo(expected);
    }

    @Test
    void isoMillisRefusesInstantsJavaScriptCannotHold() {
        for (Instant outside : new Instant[] {Instant.parse("+275760-09-13T00:00:00.001Z"),
            Instant.parse("-271821-04-19T23:59:59.999Z"), Instant.MAX, Instant.MIN}) {
            assertThatThrownBy(() -> CanonicalMandate.isoMillis(outside)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "2030", "2030-01", "2030-01-01T00:00:00", "2030-01-01T00:00", "2030-01-01 00:00:00Z",
        "2030-01-01t00:00:00z", "2030-02-30T00:00:00Z", "2030-13-01T00:00:00Z", "2030-01-01T24:00:00Z",
        "2030-01-01T00:60:00Z", "2030-01-01T00:00:60Z", "2030-01-01T00:00:00.Z", "2030-01-01T00:00:00+24:00",
        "2030-01-01T00:00:00+0100", "2030-01-01T00:00:00+01", "-000000-01-01T00:00:00Z", "+275760-09-13T00:00:00.001Z",
        "-271821-04-19T23:59:59.999Z", "Tue Jan 01 2030", "1893456000000", "20300101T000000Z", " 2030-01-01T00:00:00Z"})
    void expiryParsingRefusesWhatJavaScriptReadsDifferentlyOrNotAtAll(String text) {
        assertThatThrownBy(() -> JsDate.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("timestamp");
    }

    private static String nestedObjects(int depth) {
        return "{\"a\":".repeat(depth - 1) + "{}" + "}".repeat(depth - 1);
    }

    private static String nestedArrays(int depth) {
        return "{\"a\":" + "[".repeat(depth - 1) + "]".repeat(depth - 1) + "}";
    }
}
