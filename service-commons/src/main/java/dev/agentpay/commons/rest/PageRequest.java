package dev.agentpay.commons.rest;

import dev.agentpay.commons.error.ApiException;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.QueryParam;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/**
 * The page size of a listing, one typed parameter for every list endpoint ({@code @Valid @BeanParam PageRequest}):
 * {@code ?limit=} is a whole number (Bean Validation, {@code 400 validation_error "limit: ..."}); absent or blank
 * means the endpoint's default; the endpoint names its own range with {@link #limit(int, int)}. Taken as text:
 * a JAX-RS {@code Integer} query parameter that does not convert is a 404, not a 400.
 */
public class PageRequest {

    @QueryParam("limit")
    @Parameter(description = "page size (a whole number from 1 to the endpoint's maximum); absent: the endpoint's default",
            schema = @Schema(pattern = "^[0-9]{1,9}$", examples = "20"))
    @Pattern(regexp = "\\s*[0-9]{1,9}\\s*", message = "must be a whole number")
    String limit;

    public PageRequest() {
    }

    /** A page request for {@code limit} as sent (tests, callers outside a request). */
    public PageRequest(String limit) {
        this.limit = limit;
    }

    /**
     * The page size: {@code defaultLimit} when absent; {@code 400 validation_error} naming {@code limit} outside
     * 1..{@code max}.
     */
    public int limit(int defaultLimit, int max) {
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
