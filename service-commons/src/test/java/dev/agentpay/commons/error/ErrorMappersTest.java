package dev.agentpay.commons.error;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.agentpay.commons.limits.JsonLimits;
import dev.agentpay.commons.limits.LimitMappers;
import dev.agentpay.commons.limits.StrictJson;
import dev.agentpay.commons.limits.WellFormedText;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.InternalServerErrorException;
import jakarta.ws.rs.NotAcceptableException;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.junit.jupiter.api.Test;

/**
 * Every exception mapper of the platform, called directly with the exceptions the JSON reader and
 * JAX-RS really throw: the status, the stable code, a message naming the field when there is one,
 * and nothing of an unexpected failure's cause in the answer.
 */
class ErrorMappersTest {

    private final ErrorMappers mappers = new ErrorMappers();
    private final ObjectMapper json = JsonLimits.newMapper();
    /** As a service's framework mapper reads request bodies. */
    private final ObjectMapper strict = StrictJson.apply(JsonLimits.newMapper());

    record Terms(String currency, long amount, List<Line> lines) {
    }

    record Line(String sku, int quantity) {
    }

    private static void assertEnvelope(Response r, int status, String code, String message) {
        assertThat(r.getStatus()).isEqualTo(status);
        assertThat(r.getMediaType()).isEqualTo(MediaType.APPLICATION_JSON_TYPE);
        assertThat(r.getEntity()).isEqualTo(ErrorBody.of(code, message));
        assertThat(((ErrorBody) r.getEntity()).success()).isFalse();
    }

    private <T extends Throwable> T readFails(String body, Class<T> type) {
        T e = catchThrowableOfType(type, () -> json.readValue(body, Terms.class));
        assertThat(e).as("reading %s throws %s", body, type.getSimpleName()).isNotNull();
        return e;
    }

    @Test
    void apiExceptionKeepsItsStatusCodeAndMessage() {
        assertEnvelope(mappers.apiException(ApiException.conflict("mandate_not_active", "mandate m_1 is revoked")),
                409, "mandate_not_active", "mandate m_1 is revoked");
        assertEnvelope(mappers.apiException(ApiException.invalidField("terms.amount", "must be positive")),
                400, "validation_error", "terms.amount: must be positive");
        assertEnvelope(mappers.apiException(ApiException.unauthorized("missing x-api-key")), 401, "unauthorized", "missing x-api-key");
        assertEnvelope(mappers.apiException(ApiException.forbidden("not_party", "not a party")), 403, "not_party", "not a party");
        assertEnvelope(mappers.apiException(ApiException.notFound("mandate_not_found", "no mandate m_2")),
                404, "mandate_not_found", "no mandate m_2");
        assertEnvelope(mappers.apiException(ApiException.badRequest("bad_cursor", "cursor is not valid")), 400, "bad_cursor", "cursor is not valid");
    }

    @Test
    void aWrongTypeNamesTheFieldPathWithArrayIndexes() {
        MismatchedInputException top = readFails("{\"currency\":\"USDC\",\"amount\":{},\"lines\":[]}", MismatchedInputException.class);
        assertEnvelope(mappers.mismatched(top), 400, "validation_error", "amount: must be a number");
        MismatchedInputException nested = readFails("{\"lines\":[{\"sku\":\"a\",\"quantity\":1},{\"sku\":\"b\",\"quantity\":[1]}]}",
                MismatchedInputException.class);
        assertEnvelope(mappers.mismatched(nested), 400, "validation_error", "lines.[1].quantity: must be a number");
        InvalidFormatException format = readFails("{\"amount\":\"ten\"}", InvalidFormatException.class);
        assertEnvelope(mappers.mismatched(format), 400, "validation_error", "amount: must be a number");
    }

    @Test
    void aNumberBeyondTheParserLimitNamesTheLimit() {
        com.fasterxml.jackson.core.exc.StreamConstraintsException e = readFails("{\"amount\":1" + "0".repeat(200) + "}",
                com.fasterxml.jackson.core.exc.StreamConstraintsException.class);
        assertEnvelope(mappers.json(e), 400, "invalid_json", "request body has a number of more than 100 characters (the limit)");
        assertEnvelope(mappers.web(new BadRequestException(e)), 400, "invalid_json",
                "request body has a number of more than 100 characters (the limit)");
        // met lazily while binding, wrapped by databind
        assertEnvelope(mappers.json(new com.fasterxml.jackson.databind.JsonMappingException(null, "bound", e)), 400,
                "invalid_json", "request body has a number of more than 100 characters (the limit)");
    }

    @Test
    void anUnknownFieldIsNamed() {
        UnrecognizedPropertyException e = readFails("{\"currency\":\"USDC\",\"lines\":[{\"sku\":\"a\",\"price\":3}]}",
                UnrecognizedPropertyException.class);
        assertEnvelope(mappers.mismatched(e), 400, "validation_error", "lines.[0].price: unknown field");
    }

    @Test
    void textThatIsNotWellFormedIsNamedWithItsRule() {
        InvalidFormatException e = readFails("{\"currency\":\"US\\u0000DC\"}", InvalidFormatException.class);
        assertEnvelope(mappers.mismatched(e), 400, "validation_error", "currency: " + WellFormedText.MESSAGE);
    }

    /** Binding {@code body} to {@code type} as a service's framework mapper does fails, answered so by the mappers. */
    private void answers(String body, Class<?> type, String code, String message) {
        Throwable e = catchThrowable(() -> strict.readValue(body, type));
        assertThat(e).as(body).isInstanceOf(JsonProcessingException.class);
        assertEnvelope(e instanceof MismatchedInputException m ? mappers.mismatched(m) : mappers.json((JsonProcessingException) e),
                400, code, message);
    }

    @Test
    void aShapeWithoutAPathIsDescribedWithoutOne() {
        answers("[1,2]", Terms.class, "invalid_body", "request body must be a JSON object");
        answers("\"x\"", Terms.class, "invalid_body", "request body must be a JSON object");
        MismatchedInputException list = catchThrowableOfType(MismatchedInputException.class,
                () -> json.readValue("{\"a\":1}", new com.fasterxml.jackson.core.type.TypeReference<List<Line>>() { }));
        assertEnvelope(mappers.mismatched(list), 400, "invalid_body", "request body does not have the expected shape");
    }

    @Test
    void aValueAfterTheDocumentIsInvalidJson() {
        answers("{\"currency\":\"USDC\"} {}", Terms.class, "invalid_json", "request body is not valid JSON");
        answers("{\"currency\":\"USDC\"} x", Terms.class, "invalid_json", "request body is not valid JSON");
    }

    record Window(@Schema(format = "date-time") String from, @JsonProperty("valid_until") @Schema(format = "date-time") String until,
            @Schema(format = "email") String note) {
    }

    @Test
    void textDocumentedAsATimestampSaysSo() {
        answers("{\"from\":1700000000}", Window.class, "validation_error", "from: must be an ISO 8601 timestamp string");
        // named by its JSON name
        answers("{\"valid_until\":true}", Window.class, "validation_error", "valid_until: must be an ISO 8601 timestamp string");
        answers("{\"note\":1}", Window.class, "validation_error", "note: must be a string");
    }

    @Test
    void malformedJsonAndDuplicateKeysAreInvalidJson() {
        JsonParseException broken = readFails("{\"currency\":", JsonParseException.class);
        // a cut-off document is an end-of-input error, a subtype some readers surface as a plain processing exception
        assertEnvelope(mappers.json(broken), 400, "invalid_json", "request body is not valid JSON");
        JsonParseException garbage = readFails("{currency:1}", JsonParseException.class);
        assertEnvelope(mappers.json(garbage), 400, "invalid_json", "request body is not valid JSON");
        JsonParseException dup = readFails("{\"amount\":1,\"amount\":1000}", JsonParseException.class);
        assertEnvelope(mappers.json(dup), 400, "invalid_json",
                "request body repeats the key \"amount\" in one object; send each key once");
    }

    @Test
    void aDuplicateKeyIsCutTo64CharactersAndOtherParseErrorsAreNoDuplicate() {
        String longKey = "k".repeat(100);
        JsonParseException dup = catchThrowableOfType(JsonParseException.class,
                () -> json.readTree("{\"" + longKey + "\":1,\"" + longKey + "\":2}"));
        assertThat(ErrorMappers.duplicateKey(dup)).isEqualTo("request body repeats the key \"" + "k".repeat(64)
                + "...\" in one object; send each key once");
        assertThat(ErrorMappers.duplicateKey(readFails("{x", JsonParseException.class))).isNull();
    }

    @Test
    void aJsonLimitIsNamedAsALimit() {
        StreamConstraintsException e = catchThrowableOfType(StreamConstraintsException.class,
                () -> json.readTree("[".repeat(40) + "]".repeat(40)));
        assertEnvelope(new LimitMappers().constraints(e), 400, "invalid_json",
                "request body exceeds a JSON limit (depth, string, number or name length)");
    }

    @Test
    void jaxRsRefusalsGetTheirOwnCodes() {
        assertEnvelope(mappers.web(new NotFoundException()), 404, "not_found", "no such resource");
        assertEnvelope(mappers.web(new NotAllowedException("GET")), 405, "method_not_allowed",
                "method not allowed on this resource");
        assertEnvelope(mappers.web(new NotSupportedException()), 415, "unsupported_media_type",
                "send the body as application/json");
        assertEnvelope(mappers.web(new WebApplicationException(413)), 413, "payload_too_large", "request body exceeds the limit");
        assertEnvelope(mappers.web(new NotAcceptableException()), 406, "not_acceptable", "this resource answers application/json");
        assertEnvelope(mappers.web(new BadRequestException()), 400, "bad_request", "the request was not understood");
        assertEnvelope(mappers.web(new WebApplicationException(404)), 404, "not_found", "no such resource");
        assertEnvelope(mappers.web(new WebApplicationException(409)), 409, "bad_request", "the request was not understood");
    }

    @Test
    void jacksonFailuresWrappedByTheReaderAreStillNamed() {
        JsonParseException dup = readFails("{\"amount\":1,\"amount\":2}", JsonParseException.class);
        assertEnvelope(mappers.web(new BadRequestException(dup)), 400, "invalid_json",
                "request body repeats the key \"amount\" in one object; send each key once");
        UnrecognizedPropertyException unknown = readFails("{\"extra\":1}", UnrecognizedPropertyException.class);
        assertEnvelope(mappers.web(new BadRequestException(unknown)), 400, "validation_error", "extra: unknown field");
    }

    @Test
    void aServerFailureNeverShowsItsCause() {
        String secret = "password=hunter2 at db.internal:5432";
        Response r = mappers.web(new InternalServerErrorException(secret));
        assertEnvelope(r, 500, "internal_error", "the request could not be completed");
        Response unexpected = mappers.unexpected(new IllegalStateException(secret));
        assertEnvelope(unexpected, 500, "internal_error", "the request could not be completed");
        assertThat(unexpected.getEntity().toString()).doesNotContain("hunter2");
    }

    @Test
    void anApiExceptionWrappedByAnotherFailureIsStillTheCallersError() {
        ApiException api = ApiException.notFound("invoice_not_found", "no invoice inv_1");
        assertEnvelope(mappers.unexpected(new java.util.concurrent.CompletionException(api)), 404, "invoice_not_found",
                "no invoice inv_1");
    }

    @Test
    void theEnvelopeSerialisesAsTheSpecSaysAndCarriesNoStackTrace() throws JsonProcessingException {
        assertThat(json.writeValueAsString(ErrorBody.of("not_found", "no such resource")))
                .isEqualTo("{\"success\":false,\"error\":{\"code\":\"not_found\",\"message\":\"no such resource\"}}");
        assertThat(new ApiException(400, "x", "y").getStackTrace()).as("an expected refusal costs no stack trace").isEmpty();
    }
}
