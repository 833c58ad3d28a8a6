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
import java.text.Normalizer;

/**
 * A mandate party id ({@code proposer}, {@code counterparty}, and every other field naming a party, such as
 * a party list's {@code id}), refused with {@code 400 validation_error} naming the field unless both rules hold:
 * <ul>
 * <li>the character policy ({@link #characterProblem}): in Unicode NFC, without control characters, format
 * characters (bidi overrides and isolates, zero-width characters, soft hyphen, BOM) or line and paragraph
 * separators, so that the name a reviewer reads in the public view is the name that was signed;
 * <li>not a wallet look-alike: an id that after NFKC folding, trimming and lowercasing starts with
 * {@code eip155:} must be a valid CAIP-10 account as written ({@link WalletParty#lookAlikeProblem}).
 * </ul>
 * Each broken rule is its own violation (the first by message is answered). A {@code null} is left to {@code @NotNull}.
 */
@Target({ElementType.FIELD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = PartyId.Validator.class)
public @interface PartyId {

    String message() default "must be in Unicode NFC without control, bidi or zero-width characters, and a CAIP-10 account when it reads as a wallet";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Validator extends PresentValueValidator<PartyId, String> {

        @Override
        protected boolean isValidPresent(String s, ConstraintValidatorContext context) {
            boolean characters = Violations.refuseIf(context, characterProblem(s));
            boolean wallet = Violations.refuseIf(context, WalletParty.lookAlikeProblem(s));
            return characters && wallet;
        }

        /** What breaks the character policy in {@code s}, or {@code null} when nothing does. */
        static String characterProblem(String s) {
            for (int i = 0; i < s.length(); ) {
                int cp = s.codePointAt(i);
                int type = Character.getType(cp);
                if (type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                        || type == Character.PARAGRAPH_SEPARATOR) {
                    return String.format("must not contain control, bidi or zero-width characters (U+%04X at character %d)",
                            cp, s.codePointCount(0, i) + 1);
                }
                i += Character.charCount(cp);
            }
            if (!Normalizer.isNormalized(s, Normalizer.Form.NFC)) {
                return "must be in Unicode normalization form NFC (compose accents: \"é\" as U+00E9, not \"e\" + U+0301)";
            }
            return null;
        }
    }
}
