package dev.agentpay.mandate.rest;

import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.rest.JsonRequest;
import dev.agentpay.mandate.service.ApiJson;
import dev.agentpay.mandate.signing.CanonicalJson;
import dev.agentpay.mandate.signing.JsDate;
import java.text.Normalizer;
import java.time.Instant;
import java.util.Set;

/**
 * The mandate API's own field rules on top of the platform's request reader ({@link JsonRequest}): the
 * signed {@code terms} kept as raw text, party names, and timestamps read as JavaScript's Date reads them.
 */
final class MandateFields {

    /** Fields whose raw text is kept and escaped by the canonicalizer rather than stored as parsed strings. */
    private static final Set<String> RAW_FIELDS = Set.of("terms");

    private MandateFields() {
    }

    /** Reads a mandate API body with {@link ApiJson#MAPPER} (exact numbers, nesting for terms). */
    static JsonRequest parse(String contentType, String body, int maxBytes, boolean optional, Set<String> allowed) {
        // terms is kept as the client's raw text and canonicalized with JSON.stringify's escaping, so an
        // unpaired surrogate there is signable (the canonical vectors cover it); anywhere else it is refused
        return JsonRequest.parse(ApiJson.MAPPER, contentType, body, maxBytes, optional, allowed, RAW_FIELDS);
    }

    /**
     * A required JSON object; returns its exact text from the body (so numbers and escapes reach the
     * canonicalizer untouched, which also enforces its own depth limit).
     */
    static String requiredObjectText(JsonRequest req, String field) {
        String inexact = CanonicalJson.firstInexactNumber(req.requiredObject(field));
        if (inexact != null) {
            throw ApiException.invalidField(field + "." + inexact, "a number must keep its value through the canonical "
                    + "encoding (an IEEE double, as JavaScript's JSON.parse reads it): finite, at most about 1.8e308, "
                    + "not below 5e-324 unless 0, and at most 17 significant digits that round-trip; send it as a string");
        }
        return req.rawText(field);
    }

    /**
     * A party name ({@code proposer}, {@code counterparty}): a required string of at most
     * {@code maxLength} characters, in Unicode NFC, without control characters, format characters (bidi
     * overrides and isolates, zero-width characters, soft hyphen, BOM) or line and paragraph separators,
     * so that the name a reviewer reads in the public view is the name that was signed.
     */
    static String partyName(JsonRequest req, String field, int maxLength) {
        String s = req.requiredString(field, maxLength);
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            int type = Character.getType(cp);
            if (type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR) {
                throw ApiException.invalidField(field, String.format("must not contain control, bidi or zero-width "
                        + "characters (U+%04X at character %d)", cp, s.codePointCount(0, i) + 1));
            }
            i += Character.charCount(cp);
        }
        if (!Normalizer.isNormalized(s, Normalizer.Form.NFC)) {
            throw ApiException.invalidField(field, "must be in Unicode normalization form NFC (compose accents: "
                    + "\"é\" as U+00E9, not \"e\" + U+0301)");
        }
        return s;
    }

    /** A required ISO 8601 timestamp with a zone ({@code Z} or an offset). */
    static Instant requiredTimestamp(JsonRequest req, String field) {
        if (!req.has(field)) {
            throw ApiException.invalidField(field, "is required");
        }
        String text = req.textOrNull(field);
        if (text == null) {
            throw ApiException.invalidField(field, "must be an ISO 8601 timestamp string");
        }
        try {
            // read as JavaScript's Date does, so the signed expires_at is the one the partner computes
            return JsDate.parse(text);
        } catch (IllegalArgumentException e) {
            throw ApiException.invalidField(field, "must be an ISO 8601 timestamp with a time zone, for example "
                    + "2030-01-31T12:00:00.000Z (" + e.getMessage() + ")");
        }
    }
}
