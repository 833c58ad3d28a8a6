package dev.agentpay.commons.validation;

import jakarta.validation.ConstraintValidatorContext;

/**
 * A constraint violation whose message is computed (it names what was found), not a template: the
 * services' own validators answer with it, and {@link ViolationMapper} puts it after the field's name.
 */
public final class Violations {

    private Violations() {
    }

    /** Replaces the default violation by {@code message}; always {@code false} (the value is not valid). */
    public static boolean refuse(ConstraintValidatorContext context, String message) {
        return refuse(context, null, message);
    }

    /**
     * The verdict of a rule that names what is wrong or nothing: {@code true} when {@code problem} is {@code null},
     * else refuses with {@code problem} as the message ({@code false}).
     */
    public static boolean refuseIf(ConstraintValidatorContext context, String problem) {
        return problem == null || refuse(context, problem);
    }

    /** Replaces the default violation by {@code message}, under the sub-path {@code node} when not null. */
    public static boolean refuse(ConstraintValidatorContext context, String node, String message) {
        context.disableDefaultConstraintViolation();
        var builder = context.buildConstraintViolationWithTemplate(literal(message));
        if (node != null) {
            builder.addPropertyNode(node).addConstraintViolation();
        } else {
            builder.addConstraintViolation();
        }
        return false;
    }

    /** {@code text} as a message template that interpolates to itself (no parameters, no expressions). */
    static String literal(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '{' || c == '}' || c == '$' || c == '\\') {
                out.append('\\');
            }
            out.append(c);
        }
        return out.toString();
    }
}
