package dev.agentpay.mandate.mandates.rest;

import dev.agentpay.commons.validation.PresentValueValidator;
import dev.agentpay.commons.validation.Violations;
import dev.agentpay.mandate.signing.JsDate;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * An ISO 8601 timestamp with a zone ({@code Z} or an offset), read as JavaScript's {@code Date} reads it
 * ({@link JsDate}), so the signed {@code expires_at} is the one the partner computes. A {@code null} is
 * left to {@code @NotNull}.
 */
@Target(ElementType.FIELD)
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = JsTimestamp.Validator.class)
public @interface JsTimestamp {

    String message() default "must be an ISO 8601 timestamp with a time zone, for example 2030-01-31T12:00:00.000Z";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator extends PresentValueValidator<JsTimestamp, String> {

        @Override
        protected boolean isValidPresent(String value, ConstraintValidatorContext context) {
            try {
                JsDate.parse(value);
                return true;
            } catch (IllegalArgumentException e) {
                return Violations.refuse(context, "must be an ISO 8601 timestamp with a time zone, for example "
                        + "2030-01-31T12:00:00.000Z (" + e.getMessage() + ")");
            }
        }
    }
}
