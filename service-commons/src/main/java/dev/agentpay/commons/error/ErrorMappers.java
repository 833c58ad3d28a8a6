package dev.agentpay.commons.error;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.agentpay.commons.limits.JsonLimits;
import dev.agentpay.commons.limits.WellFormedText;
import dev.agentpay.commons.validation.JsonPropertyNames;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.Collection;
import java.util.Map;
import java.util.stream.Collectors;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
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

    /**
     * Whether {@code e} (or a cause) says the database cannot be reached or refuses connections, as opposed to a
     * query that failed: a refused, reset or lost connection ({@link java.net.SocketException}, which a refused
     * connection's {@link java.net.ConnectException} is too, and a "Connection reset" while PostgreSQL goes down;
     * {@link io.vertx.sqlclient.ClosedConnectionException}), or PostgreSQL's connection-exception (08), operator
     * intervention (57P: shutdown, cannot connect now), insufficient-resources (53: too many connections) classes,
     * and 55000 (a database not accepting connections, {@code ALTER DATABASE ... ALLOW_CONNECTIONS false}).
     */
    public static boolean databaseUnavailable(Throwable e) {
        int depth = 0;
        for (Throwable c = e; c != null && depth < 16; c = c.getCause() == c ? null : c.getCause(), depth++) {
            if (c instanceof java.net.SocketException || c instanceof io.vertx.sqlclient.ClosedConnectionException) {
                return true;
            }
            if (c instanceof io.vertx.pgclient.PgException pg && pg.getSqlState() != null) {
                String state = pg.getSqlState();
                if (state.startsWith("08") || state.startsWith("57P") || state.startsWith("53") || state.equals("55000")) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A body that parses but binds to no request record (a wrong type, an unknown field, text that is not
     * well-formed; the subtypes of {@link MismatchedInputException}), naming the field.
     */
    @ServerExceptionMapper(priority = 1)
    public Response mismatched(MismatchedInputException e) {
        return binding(e);
    }

    /** A body that is not JSON, repeats a key in one object, or goes beyond the parser's limits. */
    @ServerExceptionMapper(priority = 1)
    public Response json(JsonProcessingException e) {
        Response parser = parserError(e);
        return parser != null ? parser : response(400, "invalid_json", "request body is not valid JSON");
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
        if (cause instanceof MismatchedInputException mie) {
            return binding(mie);
        }
        if (cause instanceof JsonProcessingException jpe) {
            return json(jpe);
        }
        return response(status, "bad_request", "the request was not understood");
    }

    /** Seconds a client is told to wait when the service's own database is unavailable. */
    public static final int DATABASE_RETRY_AFTER_SECONDS = 5;

    @ServerExceptionMapper
    public Response unexpected(Throwable e) {
        if (e.getCause() instanceof ApiException api) {
            return apiException(api);
        }
        if (databaseUnavailable(e)) {
            // the service's own database refuses or lost its connections: a condition to wait out, not a bug
            LOG.warnf("database unavailable: %s", e.getMessage());
            return Response.status(503).type(MediaType.APPLICATION_JSON_TYPE)
                    .header("Retry-After", Integer.toString(DATABASE_RETRY_AFTER_SECONDS))
                    .entity(ErrorBody.of("service_unavailable", "the service's database is unavailable; retry after "
                            + DATABASE_RETRY_AFTER_SECONDS + " s"))
                    .build();
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
     * The answer for a parser failure, itself or met while binding (a {@code JsonNode} field, a number read
     * lazily) and wrapped by databind: a syntax error (a repeated key named) or a limit, not a type error;
     * {@code null} when there is none.
     */
    private static Response parserError(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof StreamConstraintsException limit) {
                return response(400, "invalid_json", limitMessage(limit));
            }
            if (c instanceof JsonParseException syntax) {
                String duplicate = duplicateKey(syntax);
                return response(400, "invalid_json", duplicate != null ? duplicate : "request body is not valid JSON");
            }
        }
        return null;
    }

    /**
     * A body that binds to no request record: {@code invalid_body} for its shape ("request body must be a JSON
     * object" when the record is one, as every request body is), and {@code validation_error} naming the field
     * (by its JSON path) when one field is at fault: unknown, of the wrong type (saying which type it must be),
     * or text PostgreSQL cannot store.
     */
    private static Response binding(MismatchedInputException e) {
        Response parser = parserError(e.getCause());
        if (parser != null) {
            return parser;
        }
        if (e.getPath().isEmpty() && String.valueOf(e.getOriginalMessage()).startsWith("Trailing token")) {
            // a value after the document ({"a":1} {}), refused by StrictJson: not one JSON text
            return response(400, "invalid_json", "request body is not valid JSON");
        }
        if (!e.getPath().isEmpty()) {
            String field = e.getPath().stream()
                    .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                    .collect(Collectors.joining("."));
            return response(400, "validation_error", field + ": " + problem(e));
        }
        return response(400, "invalid_body", objectShaped(e.getTargetType()) ? "request body must be a JSON object"
                : "request body does not have the expected shape");
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
        if (CharSequence.class.isAssignableFrom(t)) {
            return documentedTimestamp(e.getPath().get(e.getPath().size() - 1)) ? "must be an ISO 8601 timestamp string"
                    : "must be a string";
        }
        if (t.isEnum() || t == Character.class || t == char.class) {
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
        if (objectShaped(t)) {
            return "must be a JSON object";
        }
        return "wrong type";
    }

    private static boolean objectShaped(Class<?> t) {
        return t != null && (Map.class.isAssignableFrom(t) || ObjectNode.class.isAssignableFrom(t) || t.isRecord());
    }

    /**
     * Whether the field at fault is text its record documents as a timestamp ({@code @Schema(format = "date-time")},
     * e.g. invoice-service's {@code expiresAt}, mandate-service's {@code expiry}): its refusal says what text it takes.
     */
    private static boolean documentedTimestamp(JsonMappingException.Reference at) {
        Object from = at.getFrom();
        if (from == null || at.getFieldName() == null) {
            return false;
        }
        return JsonPropertyNames.field(from instanceof Class<?> c ? c : from.getClass(), at.getFieldName())
                .map(f -> f.getAnnotation(Schema.class))
                .filter(schema -> "date-time".equals(schema.format()))
                .isPresent();
    }
}
