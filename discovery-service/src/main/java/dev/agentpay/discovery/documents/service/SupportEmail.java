package dev.agentpay.discovery.documents.service;

import java.util.regex.Pattern;

/**
 * The operator's contact address published as the manifest's {@code auth.keys_from}
 * ({@code discovery.support-email}). A manifest must never publish a template placeholder
 * ({@code <SUPPORT_EMAIL>}, {@code ${...}}, {@code {{...}}}) or an empty value: anything that is not a
 * plain {@code local@domain.tld} address stops the service at start.
 */
public final class SupportEmail {

    /** A plain address: no spaces, angle brackets, braces or dollar signs, one {@code @}, a dotted domain. */
    static final Pattern ADDRESS = Pattern.compile("[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(\\.[A-Za-z0-9-]{1,63})+");

    private SupportEmail() {
    }

    /**
     * @return {@code value} trimmed
     * @throws IllegalStateException when it is not a plain e-mail address
     */
    public static String require(String value) {
        String v = value == null ? "" : value.trim();
        if (!ADDRESS.matcher(v).matches()) {
            throw new IllegalStateException("discovery.support-email (SUPPORT_EMAIL) must be a plain e-mail address,"
                    + " the manifest's auth.keys_from; got '" + v + "'");
        }
        return v;
    }
}
