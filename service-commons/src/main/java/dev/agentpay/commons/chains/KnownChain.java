package dev.agentpay.commons.chains;

import dev.agentpay.commons.validation.PresentValueValidator;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * One of the platform's chains ({@link Chain#of}: base, skale, polygon, arbitrum, solana; any case, surrounding
 * blanks ignored); else 400 {@code unsupported_chain} (the {@code code} attribute, read by
 * {@code commons.validation.ViolationMapper}). Absent values ({@code null}) are left to {@code @NotNull}.
 */
@Constraint(validatedBy = KnownChain.Check.class)
@Target({ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD, ElementType.RECORD_COMPONENT})
@Retention(RetentionPolicy.RUNTIME)
public @interface KnownChain {
    String message() default "must be one of base, skale, polygon, arbitrum, solana";

    String code() default "unsupported_chain";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Check extends PresentValueValidator<KnownChain, String> {
        @Override
        protected boolean isValidPresent(String v, ConstraintValidatorContext c) {
            return Chain.of(v).isPresent();
        }
    }
}
