package dev.agentpay.mandate.mandates.rest;

import dev.agentpay.commons.validation.PresentValueValidator;
import dev.agentpay.commons.validation.Violations;
import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.text.Normalizer;

/**
 * A party name ({@code proposer}, {@code counterparty}): in Unicode NFC, without control characters, format
 * characters (bidi overrides and isolates, zero-width characters, soft hyphen, BOM) or line and paragraph
 * separators, so that the name a reviewer reads in the public view is the name that was signed. A
 * {@code null} is left to {@code @NotNull}.
 */
@Target({ElementType.FIELD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = PartyName.Validator.class)
public @interface PartyName {

    String message() default "must be in Unicode NFC without control, bidi or zero-width characters";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator extends PresentValueValidator<PartyName, String> {

        @Override
        protected boolean isValidPresent(String s, ConstraintValidatorContext context) {
            for (int i = 0; i < s.length(); ) {
                int cp = s.codePointAt(i);
                int type = Character.getType(cp);
                if (type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                        || type == Character.PARAGRAPH_SEPARATOR) {
                    return Violations.refuse(context, String.format("must not contain control, bidi or zero-width "
                            + "characters (U+%04X at character %d)", cp, s.codePointCount(0, i) + 1));
                }
                i += Character.charCount(cp);
            }
            if (!Normalizer.isNormalized(s, Normalizer.Form.NFC)) {
                return Violations.refuse(context, "must be in Unicode normalization form NFC (compose accents: "
                        + "\"é\" as U+00E9, not \"e\" + U+0301)");
            }
            return true;
        }
    }
}
