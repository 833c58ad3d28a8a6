package dev.agentpay.commons.rest;

import dev.agentpay.commons.error.ApiException;

/**
 * The {@code ?limit=} page size of every list endpoint, one rule for all: taken as text with
 * {@code @Pattern(regexp = PageLimit.WHOLE_NUMBER, message = PageLimit.NOT_A_WHOLE_NUMBER)} (Bean Validation:
 * {@code 400 validation_error "limit: must be a whole number"}; a JAX-RS {@code Integer} query parameter that does
 * not convert would be a 404), then {@link #of} applies the endpoint's default and range.
 */
public final class PageLimit {

    /** A whole number, surrounding blanks allowed (absent and blank: the endpoint's default). */
    public static final String WHOLE_NUMBER = "\\s*[0-9]{0,9}\\s*";

    public static final String NOT_A_WHOLE_NUMBER = "must be a whole number";

    /** How the OpenAPI documents describe the parameter. */
    public static final String DESCRIPTION = "page size, a whole number from 1 to the endpoint's maximum; absent: its default";

    private PageLimit() {
    }

    /**
     * The page size {@code limit} asks for: {@code defaultLimit} when absent or blank; {@code 400 validation_error}
     * naming {@code limit} outside 1..{@code max}.
     */
    public static int of(String limit, int defaultLimit, int max) {
        if (limit == null || limit.isBlank()) {
            return defaultLimit;
        }
        int n;
        try {
            n = Integer.parseInt(limit.trim());
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 1 || n > max) {
            throw ApiException.invalidField("limit", "must be an integer from 1 to " + max);
        }
        return n;
    }
}
