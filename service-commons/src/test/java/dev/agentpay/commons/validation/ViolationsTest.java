package dev.agentpay.commons.validation;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Payload;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Set;
import org.hibernate.validator.HibernateValidator;
import org.junit.jupiter.api.Test;

class ViolationsTest {

    /**
     * Refuses every value but {@code ok} with a message that names it, under the sub-path {@code part} when the value
     * says so.
     */
    @Constraint(validatedBy = Echo.Check.class)
    @Target(ElementType.FIELD)
    @Retention(RetentionPolicy.RUNTIME)
    @interface Echo {
        String message() default "unused";

        Class<?>[] groups() default {};

        Class<? extends Payload>[] payload() default {};

        class Check implements ConstraintValidator<Echo, String> {
            @Override
            public boolean isValid(String v, ConstraintValidatorContext c) {
                if (v.startsWith("part:")) {
                    return Violations.refuse(c, "part", "got " + v);
                }
                return Violations.refuseIf(c, v.equals("ok") ? null : "got " + v);
            }
        }
    }

    record Body(@Echo String text) {
    }

    private final Validator validator = Validation.byProvider(HibernateValidator.class).configure()
            .buildValidatorFactory().getValidator();

    private ConstraintViolation<Body> only(String text) {
        Set<ConstraintViolation<Body>> violations = validator.validate(new Body(text));
        assertThat(violations).hasSize(1);
        return violations.iterator().next();
    }

    @Test
    void theMessageIsTheTextItselfNeverATemplate() {
        String text = "{jakarta.validation.constraints.NotNull.message} ${1 + 1} \\{x\\} $ \\";
        ConstraintViolation<Body> v = only(text);
        assertThat(v.getMessage()).isEqualTo("got " + text);
        assertThat(v.getPropertyPath()).hasToString("text");
    }

    @Test
    void noProblemIsNoViolation() {
        assertThat(validator.validate(new Body("ok"))).isEmpty();
    }

    @Test
    void aNodeNamesTheSubPath() {
        ConstraintViolation<Body> v = only("part:{a}");
        assertThat(v.getMessage()).isEqualTo("got part:{a}");
        assertThat(v.getPropertyPath()).hasToString("text.part");
    }
}
