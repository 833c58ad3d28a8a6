package dev.agentpay.invoice.rest;

import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.agentpay.commons.error.ErrorMappers;
import dev.agentpay.commons.limits.WellFormedText;
import jakarta.ws.rs.core.Response;
import java.math.BigDecimal;
import java.util.stream.Collectors;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * invoice-service's answer to a body Jackson could not bind to its record: {@code 400 validation_error}
 * naming the field ({@code "amount: must be a number"}, {@code "status: unknown field"}), the code this
 * service has always answered for a bad field; a body that is not a JSON object is {@code 400 invalid_body}
 * "request body must be a JSON object", and a {@code @Deadline} field that is not text says it takes an ISO 8601
 * timestamp. Ahead of the platform's mappers (priority 0), which now answer the same for the rest.
 */
public class BindingErrors {

    @ServerExceptionMapper(priority = 0)
    public Response mismatched(MismatchedInputException e) {
        return answer(e);
    }

    @ServerExceptionMapper(priority = 0)
    public Response invalidFormat(InvalidFormatException e) {
        return answer(e);
    }

    @ServerExceptionMapper(priority = 0)
    public Response unrecognized(UnrecognizedPropertyException e) {
        return answer(e);
    }

    static Response answer(MismatchedInputException e) {
        String field = e.getPath().stream()
                .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining("."));
        if (field.isEmpty()) {
            return ErrorMappers.response(400, "invalid_body", "request body must be a JSON object");
        }
        return ErrorMappers.response(400, "validation_error", field + ": " + problem(e));
    }

    /** Whether the field is a {@code @Deadline} (its refusal says what text it takes). */
    private static boolean deadline(MismatchedInputException e) {
        var last = e.getPath().get(e.getPath().size() - 1);
        if (!(last.getFrom() instanceof Class<?> type) || last.getFieldName() == null) {
            return false;
        }
        try {
            return type.getDeclaredField(last.getFieldName()).isAnnotationPresent(InvoiceConstraints.Deadline.class);
        } catch (NoSuchFieldException ex) {
            return false;
        }
    }

    private static String problem(MismatchedInputException e) {
        if (e instanceof UnrecognizedPropertyException) {
            return "unknown field";
        }
        Class<?> target = e.getTargetType();
        if (e instanceof InvalidFormatException ife && target == String.class && ife.getValue() instanceof String) {
            return WellFormedText.MESSAGE;
        }
        if (target == String.class) {
            return deadline(e) ? "must be an ISO 8601 timestamp string" : "must be a string";
        }
        if (target != null && (Number.class.isAssignableFrom(target) || target == BigDecimal.class)) {
            return "must be a number";
        }
        return "wrong type";
    }
}
