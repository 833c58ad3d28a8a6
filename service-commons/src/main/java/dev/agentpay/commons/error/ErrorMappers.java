package dev.agentpay.commons.error;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.agentpay.commons.limits.JsonLimits;
import dev.agentpay.commons.limits.WellFormedText;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Collection;
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

    @ServerExceptionMapper(priority = 1)
    public Response mismatched(MismatchedInputException e) {
        return binding(e);
    }

    @ServerExceptionMapper(priority = 1)
    public Response invalidFormat(InvalidFormatException e) {
        return binding(e);
    }

    @ServerExceptionMapper(priority = 1)
    public Response unrecognized(UnrecognizedPropertyException e) {
        return binding(e);
    }

    @ServerExceptionMapper(priority = 1)
    public Response limits(StreamConstraintsException e) {
        return limitError(e);
    }

    private static Response limitError(StreamConstraintsException e) {
        return response(400, "invalid_json", limitMessage(e));
    }

    @ServerExceptionMapper(priority = 1)
    public Response parse(JsonParseException e) {
        return parseError(e);
    }

    private static Response parseError(JsonParseException e) {
        String duplicate = duplicateKey(e);
        if (duplicate != null) {
            return response(400, "invalid_json", duplicate);
        }
        return response(400, "invalid_json", "request body is not valid JSON");
    }

    @ServerExceptionMapper(priority = 1)
    public Response json(JsonProcessingException e) {
        Response parser = parserCause(e);
        return parser != null ? parser : response(400, "invalid_json", "request body is not valid JSON");
    }

    @ServerExceptionMapper
    public Response notFound(NotFoundException e) {
        return response(404, "not_found", "no such resource");
    }

    @ServerExceptionMapper
    public Response notAllowed(NotAllowedException e) {
        return response(405, "method_not_allowed", "method not allowed on this resource");
    }

    @ServerExceptionMapper
    public Response unsupported(NotSupportedException e) {
        return response(415, "unsupported_media_type", "send the body as application/json");
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e) {
        int status = e.getResponse() == null ? 500 : e.getResponse().getStatus();
        if (status >= 500) {
            LOG.error("request failed", e);
            return response(status, "internal_error", "the request could not be completed");
        }
        if (status == 413) {
            return response(413, "payload_too_large", "request body exceeds the limit");
        }
        if (status == 406) {
            return response(406, "not_acceptable", "this resource answers application/json");
        }
        // Jackson failures sometimes arrive wrapped by the JSON reader.
        Throwable cause = e.getCause();
        if (cause instanceof JsonProcessingException jpe) {
            if (cause instanceof JsonParseException parse) {
                return parseError(parse);
            }
            if (cause instanceof StreamConstraintsException limit) {
                return limitError(limit);
            }
            return binding(jpe);
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

    /**
     * The message for a document beyond {@code JsonLimits}' parser limits: a number with too many digits (it
     * names the limit), or nesting and lengths beyond the parser's limits.
     */
    public static String limitMessage(StreamConstraintsException e) {
        return String.valueOf(e.getMessage()).startsWith("Number value length")
                ? "request body has a number of more than " + JsonLimits.constraints().getMaxNumberLength() + " characters (the limit)"
                : "request body nests or grows beyond the parser's limits";
    }

    /**
     * A body that binds to no request record: {@code invalid_body} for its shape (not an object, say), and
     * {@code validation_error} naming the field (by its JSON path) when one field is at fault: unknown,
     * of the wrong type (saying which type it must be), or text PostgreSQL cannot store.
     */
    /**
     * The answer for a parser failure met while binding (a {@code JsonNode} field, a number read lazily) and
     * wrapped by databind: a syntax or limit error, not a type error; {@code null} when there is none.
     */
    private static Response parserCause(JsonProcessingException e) {
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            if (c instanceof StreamConstraintsException limit) {
                return limitError(limit);
            }
            if (c instanceof JsonParseException syntax) {
                return parseError(syntax);
            }
        }
        return null;
    }

    private static Response binding(JsonProcessingException e) {
        Response parser = parserCause(e);
        if (parser != null) {
            return parser;
        }
        if (e instanceof MismatchedInputException mie && !mie.getPath().isEmpty()) {
            String field = mie.getPath().stream()
                    .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                    .collect(Collectors.joining("."));
            return response(400, "validation_error", field + ": " + problem(mie));
        }
        return response(400, "invalid_body", "request body does not have the expected shape");
    }

    private static String problem(MismatchedInputException e) {
        if (e instanceof UnrecognizedPropertyException) {
            return "unknown field";
        }
        if (e instanceof InvalidFormatException ife && ife.getTargetType() == String.class && ife.getValue() instanceof String) {
            return WellFormedText.MESSAGE;
        }
        Class<?> t = e.getTargetType();
        if (t == null) {
            return "wrong type";
        }
        if (CharSequence.class.isAssignableFrom(t) || t.isEnum() || t == Character.class || t == char.class) {
            return "must be a string";
        }
        if (Number.class.isAssignableFrom(t) || (t.isPrimitive() && t != boolean.class)) {
            return "must be a number";
        }
        if (t == Boolean.class || t == boolean.class) {
            return "must be true or false";
        }
        if (t.isArray() || Collection.class.isAssignableFrom(t) || ArrayNode.class.isAssignableFrom(t)) {
            return "must be an array";
        }
        if (Map.class.isAssignableFrom(t) || ObjectNode.class.isAssignableFrom(t) || t.isRecord()) {
            return "must be a JSON object";
        }
        return "wrong type";
    }
}
