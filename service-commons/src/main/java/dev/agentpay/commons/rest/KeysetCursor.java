package dev.agentpay.commons.rest;

import dev.agentpay.commons.error.ApiException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The opaque cursor of a list endpoint paged by a number that only grows (an invoice's number, a ledger entry's
 * sequence): {@code <kind>:<position>} in URL-safe Base64. The kind tells one list's cursors from another's, so a
 * cursor of one list is refused by the other; clients only hand back what they were given. One encoding for every
 * such list instead of a copy in each service (issue 33).
 */
public final class KeysetCursor {

    private KeysetCursor() {
    }

    /** The cursor naming {@code position} in a list of {@code kind}. */
    public static String encode(char kind, long position) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString((kind + ":" + position).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The position {@code cursor} names, or {@code null} when none was sent (absent or blank); a cursor this list did
     * not hand out is {@code 400 validation_error "cursor: is not a cursor returned by this API"}.
     */
    public static Long decode(char kind, String cursor) {
        if (cursor == null || cursor.isBlank()) {
            return null;
        }
        String prefix = kind + ":";
        try {
            String s = new String(Base64.getUrlDecoder().decode(cursor.trim()), StandardCharsets.UTF_8);
            if (s.startsWith(prefix)) {
                return Long.parseLong(s.substring(prefix.length()));
            }
        } catch (IllegalArgumentException e) {
            // falls through to the refusal
        }
        throw ApiException.invalidField("cursor", "is not a cursor returned by this API");
    }
}
