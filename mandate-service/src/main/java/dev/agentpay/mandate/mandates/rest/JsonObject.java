package dev.agentpay.mandate.mandates.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentpay.commons.limits.WellFormedText;
import dev.agentpay.commons.validation.Violations;
import dev.agentpay.mandate.signing.CanonicalJson;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Set;

/**
 * A field holding a JSON object as sent ({@code terms}, {@code context}). A refusal inside the object names
 * the JSON path ({@code terms.a.b}, {@code context.note}).
 */
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = JsonObject.Validator.class)
public @interface JsonObject {

    String message() default "must be a JSON object";

    /** Absent and {@code null} are refused ({@code is required}). */
    boolean required() default false;

    /** Deepest nesting of objects and arrays, the object itself being level 1; 0: no limit here. */
    int maxDepth() default 0;

    /**
     * The object is signed as sent ({@code terms}): every number must keep its value through the canonical
     * encoding (an IEEE double, as JavaScript's {@code JSON.parse} reads it), and text is kept as sent (the
     * canonical encoding escapes what PostgreSQL could not store). Otherwise text must be well formed
     * ({@link WellFormedText}).
     */
    boolean signed() default false;

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator implements ConstraintValidator<JsonObject, JsonNode> {

        private JsonObject rule;

        @Override
        public void initialize(JsonObject rule) {
            this.rule = rule;
        }

        @Override
        public boolean isValid(JsonNode node, ConstraintValidatorContext context) {
            if (node == null || node.isNull()) {
                return !rule.required() || Violations.refuse(context, "is required");
            }
            if (!node.isObject()) {
                return Violations.refuse(context, "must be a JSON object");
            }
            if (rule.maxDepth() > 0 && depth(node) > rule.maxDepth()) {
                return Violations.refuse(context, "nests deeper than " + rule.maxDepth() + " levels");
            }
            if (rule.signed()) {
                String inexact = CanonicalJson.firstInexactNumber(node);
                return inexact == null || Violations.refuse(context, inexact, "a number must keep its value through the "
                        + "canonical encoding (an IEEE double, as JavaScript's JSON.parse reads it): finite, at most about "
                        + "1.8e308, not below 5e-324 unless 0, and at most 17 significant digits that round-trip; send "
                        + "it as a string");
            }
            String illFormed = WellFormedText.firstIllFormed(node, Set.of());
            return illFormed == null || Violations.refuse(context, illFormed, WellFormedText.MESSAGE);
        }

        private static int depth(JsonNode n) {
            int max = 0;
            for (JsonNode child : n) {
                max = Math.max(max, depth(child));
            }
            return (n.isContainerNode() ? 1 : 0) + max;
        }
    }
}
