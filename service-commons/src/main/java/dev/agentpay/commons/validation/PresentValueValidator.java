package dev.agentpay.commons.validation;

import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.lang.annotation.Annotation;

/**
 * The platform's custom constraint validators judge present values only: a {@code null} is valid to them and left to
 * {@code @NotNull}, so an absent field is refused once, as absent, and a constraint can also mark optional fields.
 * Subclasses say what a present value must be ({@link #isValidPresent}); the rule for {@code null} is stated here once.
 */
public abstract class PresentValueValidator<A extends Annotation, T> implements ConstraintValidator<A, T> {

    @Override
    public boolean isValid(T value, ConstraintValidatorContext context) {
        return value == null || isValidPresent(value, context);
    }

    /** Whether {@code value}, never {@code null}, is valid; a refusal may name its reason ({@link Violations}). */
    protected abstract boolean isValidPresent(T value, ConstraintValidatorContext context);
}
