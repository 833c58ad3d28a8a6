package dev.agentpay.mandate.mandates.rest;

import dev.agentpay.commons.validation.PresentValueValidator;
import dev.agentpay.commons.validation.Violations;
import dev.agentpay.mandate.mandates.rest.MandateApi.CreateMandateRequest;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The two forms of {@code POST /v1/mandates} are exclusive: {@code proposer} and {@code counterparty} (both
 * required, as in v0.1: {@code proposer: is required}), or {@code parties} (and then neither of the two). A
 * violation names the field at fault, so it sorts with the record's other violations by field name
 * ({@code ViolationMapper}) exactly as the former {@code @NotNull} on the two did.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = MandateForm.Validator.class)
public @interface MandateForm {

    String message() default "send either proposer and counterparty, or parties";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator extends PresentValueValidator<MandateForm, CreateMandateRequest> {

        @Override
        protected boolean isValidPresent(CreateMandateRequest r, ConstraintValidatorContext context) {
            boolean valid = true;
            if (r.parties() != null) {
                if (r.proposer() != null || r.counterparty() != null) {
                    valid = Violations.refuse(context, "parties", "must not be sent with proposer or counterparty: send either "
                            + "proposer and counterparty (two parties), or parties (2 to 16)");
                }
                return valid;
            }
            if (r.proposer() == null) {
                valid = Violations.refuse(context, "proposer", "is required (or send parties instead of proposer and counterparty)");
            }
            if (r.counterparty() == null) {
                valid = Violations.refuse(context, "counterparty", "is required");
            }
            return valid;
        }
    }
}
