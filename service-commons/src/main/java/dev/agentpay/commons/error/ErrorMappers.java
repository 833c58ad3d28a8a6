package dev.agentpay.commons.error;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.agentpay.commons.limits.WellFormedText;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Map;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Turns every failure into the error envelope. Bad input is always a 4xx naming what was wrong;
 * an unexpected failure is a 500 with an opaque message (the cause is logged, never sent).
 */
public class ErrorMappers {

    private static final Logger LOG = Logger.getLogger(ErrorMappers.class);

    /** JAX-RS's own refusals with a fixed answer, by status (any other 4xx is {@code bad_request}). */
    private static final Map<Integer, ErrorBody.Detail> REFUSALS = Map.of(
            404, new ErrorBody.Detail("not_found", "no such resource"),
            405, new ErrorBody.Detail("method_not_allowed", "method not allowed on this resource"),
            406, new ErrorBody.Detail("not_acceptable", "this resource answers application/json"),
            413, new ErrorBody.Detail("payload_too_large", "request body exceeds the limit"),
            415, new ErrorBody.Detail("unsupported_media_type", "send the body as application/json"));

    public static Response response(int status, String code, String message) {
        return Response.status(status)
                .type(MediaType.APPLICATION_JSON_TYPE)
                .entity(ErrorBody.of(code, message))
                .build();
    }

    @ServerExceptionMapper
    public Response apiException(ApiException e) {
        return response(e.status(), e.code(), e.getMessage());
    }

    /** A body of the wrong shape (a wrong type, an unknown field, text that is not well-formed), naming the field. */
    @ServerExceptionMapper(priority = 1)
    public Response mismatched(MismatchedInputException e) {
        return response(400, "invalid_body", describe(e));
    }

    /** A body that is not JSON, or repeats a key in one object. */
    @ServerExceptionMapper(priority = 1)
    public Response json(JsonProcessingException e) {
        String duplicate = duplicateKey(e);
        return response(400, "invalid_json", duplicate != null ? duplicate : "request body is not valid JSON");
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e) {
        int status = e.getResponse() == null ? 500 : e.getResponse().getStatus();
        if (status >= 500) {
            LOG.error("request failed", e);
            return response(status, "internal_error", "the request could not be completed");
        }
        ErrorBody.Detail fixed = REFUSALS.get(status);
        if (fixed != null) {
            return response(status, fixed.code(), fixed.message());
        }
        // Jackson failures sometimes arrive wrapped by the JSON reader.
        Throwable cause = e.getCause();
        if (cause instanceof JsonProcessingException jpe) {
            return cause instanceof JsonParseException ? json(jpe) : response(400, "invalid_body", describe(jpe));
        }
        return response(status, "bad_request", "the request was not understood");
    }

    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        if (e.getCause() instanceof ApiException api) {
            return apiException(api);
        }
        LOG.error("unexpected failure", e);
        return response(500, "internal_error", "the request could not be completed");
    }

    /**
     * The message for a key repeated in one object (refused at every depth, {@code JsonLimits}), naming
     * the key (cut to 64 characters); {@code null} for any other parse error.
     */
    public static String duplicateKey(JsonProcessingException e) {
        String m = e.getOriginalMessage();
        if (m == null || !m.startsWith("Duplicate field '")) {
            return null;
        }
        String key = m.substring("Duplicate field '".length(), Math.max("Duplicate field '".length(), m.lastIndexOf('\'')));
        if (key.length() > 64) {
            key = key.substring(0, 64) + "...";
        }
        return "request body repeats the key \"" + key + "\" in one object; send each key once";
    }

    private static String describe(JsonProcessingException e) {
        if (e instanceof MismatchedInputException mie && !mie.getPath().isEmpty()) {
            String field = mie.getPath().stream()
                    .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                    .collect(Collectors.joining("."));
            if (e instanceof UnrecognizedPropertyException) {
                return field + ": unknown field";
            }
            if (e instanceof InvalidFormatException ife && ife.getTargetType() == String.class) {
                return field + ": " + WellFormedText.MESSAGE;
            }
            return field + ": wrong type";
        }
        return "request body does not have the expected shape";
    }
}
