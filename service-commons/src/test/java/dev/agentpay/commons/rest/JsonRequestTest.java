package dev.agentpay.commons.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.error.ErrorBody;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JsonRequestTest {

    private static final Set<String> FIELDS = Set.of("name", "terms", "n");

    private static JsonRequest parse(String body) {
        return JsonRequest.parse("application/json", body, 1000, false, FIELDS);
    }

    private static void refused(String contentType, String body, int status, String code, String message) {
        assertThatThrownBy(() -> JsonRequest.parse(contentType, body, 1000, false, FIELDS))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(status);
                    assertThat(e.code()).isEqualTo(code);
                    assertThat(e.getMessage()).contains(message);
                });
    }

    @Test
    void refusalsComeInTheOrderAClientCanActOn() {
        refused("application/json", "{\"name\":\"" + "x".repeat(1000) + "\"}", 413, "payload_too_large", "1000 bytes");
        refused("application/json", "  ", 400, "invalid_json", "required");
        refused("text/plain", "{}", 415, "unsupported_media_type", "application/json");
        refused("application/json", "{\"name\":", 400, "invalid_json", "not valid JSON");
        refused("application/json", "{\"terms\":{\"a\":1,\"a\":2}}", 400, "invalid_json", "repeats the key \"a\"");
        refused("application/json", "{} {}", 400, "invalid_json", "not valid JSON");
        refused("application/json", "[1]", 400, "invalid_body", "JSON object");
        refused("application/json", "{\"nmae\":\"x\"}", 400, "validation_error", "nmae: unknown field");
        refused("application/json", "{\"name\":\"\\ud800\"}", 400, "validation_error", "name: must be well-formed");
    }

    @Test
    void fieldsAreNamedAndRawTextIsKept() {
        JsonRequest r = JsonRequest.parse("application/merge-patch+json", "{\"name\":\"a\",\"terms\":{\"x\":1.500, \"y\":[1]}}",
                1000, false, FIELDS);
        assertThat(r.requiredString("name", 5)).isEqualTo("a");
        assertThat(r.rawText("terms")).isEqualTo("{\"x\":1.500, \"y\":[1]}");
        assertThat(r.optionalObjectJson("terms", 3)).isEqualTo("{\"x\":1.5,\"y\":[1]}");
        assertThatThrownBy(() -> r.requiredString("n", 5)).hasMessage("n: is required");
        assertThatThrownBy(() -> r.optionalObjectJson("terms", 1)).hasMessage("terms: nests deeper than 1 levels");
        assertThatThrownBy(() -> parse("{\"name\":7}").requiredString("name", 5)).hasMessage("name: must be a string");
        assertThatThrownBy(() -> parse("{\"name\":\"abcdef\"}").requiredString("name", 5))
                .hasMessage("name: must be at most 5 characters");
        assertThatThrownBy(() -> parse("{\"terms\":[]}").requiredObject("terms")).hasMessage("terms: must be a JSON object");
        assertThat(JsonRequest.parse("application/json", "", 10, true, FIELDS).node().isEmpty()).isTrue();
        assertThat(JsonRequest.parse(null, "{}", 10, false, FIELDS).node().isEmpty()).isTrue();
    }

    @Test
    void theErrorBodyIsTheOneEnvelope() {
        assertThat(ErrorBody.json("rate_limited", "too \"many\""))
                .isEqualTo("{\"success\":false,\"error\":{\"code\":\"rate_limited\",\"message\":\"too \\\"many\\\"\"}}");
    }
}
