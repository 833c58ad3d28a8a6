package dev.agentpay.mandate.rest;

import jakarta.validation.ConstraintValidatorContext;

/** Builds a constraint violation whose message is computed (it names what was found), not a template. */
final class Messages {

    private Messages() {
    }

    /** Replaces the default violation by {@code message}, under the sub-path {@code node} when not null. */
    static boolean refuse(ConstraintValidatorContext context, String node, String message) {
        context.disableDefaultConstraintViolation();
        var builder = context.buildConstraintViolationWithTemplate(literal(message));
        if (node != null) {
            builder.addPropertyNode(node).addConstraintViolation();
        } else {
            builder.addConstraintViolation();
        }
        return false;
    }

    /** {@code text} as a message template that interpolates to itself. */
    private static String literal(String text) {
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
