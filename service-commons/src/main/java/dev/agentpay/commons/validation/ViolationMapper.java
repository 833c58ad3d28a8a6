package dev.agentpay.commons.validation;

import dev.agentpay.commons.error.ErrorMappers;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.validation.ElementKind;
import jakarta.validation.Path;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Comparator;
import java.util.Objects;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Turns a Bean Validation refusal of a request ({@code @Valid} on a typed body, constraints on parameters)
 * into the platform's error envelope: {@code 400 validation_error} whose message names the JSON field
 * ({@code "mandate.amount: must be a decimal string"}), the first one by field name when several fail, so
 * the answer is the same on every try. A constraint may carry its own error code in a {@code code} attribute
 * ({@code String code() default "unsupported_chain"}): the refusal then answers that code instead, so a rule
 * moved from hand-written checks into an annotation keeps the code clients know. A body that is absent where one is required is
 * {@code 400 invalid_json "request body is required"}, as before typed binding. A violation on a
 * <em>return</em> value is the service's own fault: 500, logged.
 */
public class ViolationMapper {

    private static final Logger LOG = Logger.getLogger(ViolationMapper.class);

    /** The name of the optional constraint attribute that names the refusal's error code. */
    public static final String CODE = "code";

    @ServerExceptionMapper(priority = 1)
    public Response violation(ConstraintViolationException e) {
        if (e.getConstraintViolations().stream().anyMatch(ViolationMapper::onReturnValue)) {
            LOG.error("a response broke its own constraints", e);
            return ErrorMappers.response(500, "internal_error", "the request could not be completed");
        }
        ConstraintViolation<?> first = e.getConstraintViolations().stream()
                .min(Comparator.comparing((ConstraintViolation<?> v) -> field(v))
                        .thenComparing(v -> Objects.toString(v.getMessage(), "")))
                .orElse(null);
        if (first == null) {
            return ErrorMappers.response(400, "validation_error", "the request is not valid");
        }
        String field = field(first);
        if (field.isEmpty()) {
            return ErrorMappers.response(400, "invalid_json", "request body is required");
        }
        return ErrorMappers.response(400, code(first), field + ": " + first.getMessage());
    }

    /** The constraint's own {@code code} attribute when it declares one, else {@code validation_error}. */
    static String code(ConstraintViolation<?> v) {
        Object code = v.getConstraintDescriptor() == null ? null : v.getConstraintDescriptor().getAttributes().get(CODE);
        return code instanceof String s && !s.isBlank() ? s : "validation_error";
    }

    /**
     * Where a violation sits in the request as a client names it: a query, path or header parameter by its
     * wire name; a body field by its JSON path (property names joined by dots, list positions as {@code [i]},
     * map keys as {@code [key]}). Empty when the body itself is at fault (absent).
     */
    static String field(ConstraintViolation<?> v) {
        StringBuilder out = new StringBuilder();
        Path.MethodNode method = null;
        for (Path.Node node : v.getPropertyPath()) {
            ElementKind kind = node.getKind();
            if (kind == ElementKind.METHOD) {
                method = node.as(Path.MethodNode.class);
            } else if (kind == ElementKind.PARAMETER) {
                String wire = wireName(v.getRootBeanClass(), method, node.as(Path.ParameterNode.class));
                if (wire != null) {
                    out.append(wire);
                }
            } else if (kind == ElementKind.PROPERTY || kind == ElementKind.CONTAINER_ELEMENT) {
                if (node.getIndex() != null) {
                    out.append('[').append(node.getIndex()).append(']');
                } else if (node.getKey() != null) {
                    out.append('[').append(node.getKey()).append(']');
                }
                if (kind == ElementKind.PROPERTY && node.getName() != null) {
                    if (!out.isEmpty()) {
                        out.append('.');
                    }
                    out.append(node.getName());
                }
            }
            // bean, return value, cross-parameter nodes: no part of the client's name
        }
        return out.toString();
    }

    /** The query/path/header name of a resource method's parameter; {@code null} for the body. */
    static String wireName(Class<?> resource, Path.MethodNode method, Path.ParameterNode parameter) {
        if (resource == null || method == null) {
            return null;
        }
        for (Class<?> c = resource; c != null && c != Object.class; c = c.getSuperclass()) {
            try {
                Method m = c.getDeclaredMethod(method.getName(), method.getParameterTypes().toArray(Class<?>[]::new));
                for (Annotation a : m.getParameterAnnotations()[parameter.getParameterIndex()]) {
                    String name = null;
                    if (a instanceof QueryParam q) {
                        name = q.value();
                    } else if (a instanceof PathParam p) {
                        name = p.value();
                    } else if (a instanceof HeaderParam h) {
                        name = h.value();
                    } else if (a instanceof RestQuery q) {
                        name = q.value().isEmpty() ? parameter.getName() : q.value();
                    } else if (a instanceof RestPath p) {
                        name = p.value().isEmpty() ? parameter.getName() : p.value();
                    } else if (a instanceof RestHeader h) {
                        name = h.value().isEmpty() ? parameter.getName() : h.value();
                    }
                    if (name != null) {
                        return name;
                    }
                }
                // not here: a generated subclass (CDI interception) overrides the method without its annotations
            } catch (NoSuchMethodException e) {
                // declared higher up
            }
        }
        return null;
    }

    private static boolean onReturnValue(ConstraintViolation<?> v) {
        for (Path.Node node : v.getPropertyPath()) {
            if (node.getKind() == ElementKind.RETURN_VALUE) {
                return true;
            }
        }
        return false;
    }
}
