package dev.agentpay.mandate.partner.domain;

import dev.agentpay.commons.error.ApiException;
import dev.agentpay.commons.events.PartnerEvent;
import java.util.regex.Pattern;

/** The field rules of an imported partner, shared by the admin import endpoint and the bootstrap file. */
public final class PartnerRules {

    public static final int NAME_MAX = 200;
    public static final int SECRET_MIN = 16;
    public static final int SECRET_MAX = 512;
    /** A partner id (a regular expression, anchored as JSON Schema reads it; also the admin import's path constraint). */
    public static final String ID_PATTERN = "^[A-Za-z0-9_.-]{1,64}$";
    public static final String ID_RULE = "must be 1 to 64 characters of letters, digits, '_', '.', '-'";
    /** A signing secret: 16 to 512 visible ASCII characters (a regular expression). */
    public static final String SECRET_PATTERN = "^[\\x21-\\x7e]{" + SECRET_MIN + "," + SECRET_MAX + "}$";
    public static final String SECRET_RULE = "must be " + SECRET_MIN + " to " + SECRET_MAX + " visible ASCII characters";
    private static final Pattern ID = Pattern.compile(ID_PATTERN);
    private static final Pattern SECRET = Pattern.compile(SECRET_PATTERN);
    private static final Pattern KEY_HASH = Pattern.compile("[0-9a-f]{64}");

    private PartnerRules() {
    }

    public static void checkId(String id) {
        if (id == null || !ID.matcher(id).matches()) {
            throw ApiException.invalidField("id", ID_RULE);
        }
    }

    public static void checkSecret(String secret) {
        if (secret == null || !SECRET.matcher(secret).matches()) {
            throw ApiException.invalidField("signing_secret", SECRET_RULE);
        }
    }

    public static void checkKeyHash(String hash) {
        if (hash == null || !KEY_HASH.matcher(hash).matches()) {
            throw ApiException.invalidField("api_key_hash", "must be the SHA-256 of the key as 64 lowercase hex characters");
        }
    }

    /** {@code null} means active. */
    public static String status(String status) {
        if (status == null) {
            return PartnerEvent.ACTIVE;
        }
        if (!PartnerEvent.ACTIVE.equals(status) && !PartnerEvent.REVOKED.equals(status)) {
            throw ApiException.invalidField("status", "must be \"active\" or \"revoked\"");
        }
        return status;
    }
}
