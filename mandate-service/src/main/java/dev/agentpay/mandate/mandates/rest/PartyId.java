package dev.agentpay.mandate.mandates.rest;

import dev.agentpay.commons.validation.PresentValueValidator;
import dev.agentpay.commons.validation.Violations;
import dev.agentpay.mandate.signing.WalletParty;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A mandate party id ({@code proposer}, {@code counterparty}, and every other field naming a party, such as
 * a party list's {@code id}): a {@link PartyName} (NFC, no control, bidi or zero-width characters) that is
 * not a wallet look-alike: an id that after NFKC folding, trimming and lowercasing starts with
 * {@code eip155:} must be a valid CAIP-10 account as written ({@link WalletParty#lookAlikeProblem}), else
 * {@code 400 validation_error} naming the field. A {@code null} is left to {@code @NotNull}.
 */
@PartyName
@Target({ElementType.FIELD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = PartyId.Validator.class)
public @interface PartyId {

    String message() default "must be a CAIP-10 account eip155:<chain id>:0x<40 hex digits> when it reads as a wallet";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator extends PresentValueValidator<PartyId, String> {

        @Override
        protected boolean isValidPresent(String s, ConstraintValidatorContext context) {
            String problem = WalletParty.lookAlikeProblem(s);
            return problem == null || Violations.refuse(context, problem);
        }
    }
}
