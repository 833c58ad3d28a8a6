package dev.agentpay.commons.auth;

import dev.agentpay.commons.rest.OpenApiContract;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;

/**
 * The scopes of the partner API (OAuth 2.0 access tokens and scoped API keys), one per kind of action on
 * the routes that take a partner credential. An endpoint declares its scope with one of the nested
 * annotations ({@code @Scopes.MandatesRead}, ...) beside {@link PartnerAuthenticated}: {@link AuthFilters}
 * enforces it (through the {@link RequiresScope} it carries) and SmallRye OpenAPI documents it (through the
 * {@code @SecurityRequirement}s it carries: the API key, or the {@code oauth2} scheme with that scope), so the
 * two cannot drift. x402 charges take a payment, not a partner credential, and have no scope.
 */
public final class Scopes {

    public static final String MANDATES_READ = "mandates:read";
    public static final String MANDATES_WRITE = "mandates:write";
    public static final String MANDATES_SIGN = "mandates:sign";
    public static final String DISPUTES_WRITE = "disputes:write";
    public static final String INVOICES_READ = "invoices:read";
    public static final String INVOICES_WRITE = "invoices:write";
    public static final String WEBHOOKS_MANAGE = "webhooks:manage";

    /** Every scope and what it allows, in the order documents list them. */
    public static final Map<String, String> ALL = all();

    private Scopes() {
    }

    private static Map<String, String> all() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(MANDATES_READ, "Read your mandates and receipts");
        m.put(MANDATES_WRITE, "Create mandates and move them (start, complete)");
        m.put(MANDATES_SIGN, "Countersign mandates");
        m.put(DISPUTES_WRITE, "Open disputes on mandates");
        m.put(INVOICES_READ, "Read your invoices");
        m.put(INVOICES_WRITE, "Create invoices");
        m.put(WEBHOOKS_MANAGE, "Manage webhook subscriptions and their deliveries");
        return Collections.unmodifiableMap(m);
    }

    /**
     * The scopes of a space-separated scope string (RFC 6749 §3.3), in document order; an empty or blank
     * string is the empty set.
     *
     * @throws IllegalArgumentException naming the first scope this API does not define
     */
    public static Set<String> parse(String scope) {
        if (scope == null || scope.isBlank()) {
            return new LinkedHashSet<>();
        }
        if (scope.length() > 1024) {
            throw new IllegalArgumentException("scope string too long");
        }
        return ordered(java.util.Arrays.asList(scope.trim().split(" +")));
    }

    /** The given scopes in document order; an unknown one refused as in {@link #parse}. */
    public static Set<String> ordered(Collection<String> scopes) {
        for (String s : scopes) {
            if (s == null || !ALL.containsKey(s)) {
                throw new IllegalArgumentException("unknown scope: " + printable(s));
            }
        }
        Set<String> out = new LinkedHashSet<>();
        for (String s : ALL.keySet()) {
            if (scopes.contains(s)) {
                out.add(s);
            }
        }
        return out;
    }

    /** The space-separated form (RFC 6749 §3.3). */
    public static String format(Collection<String> scopes) {
        return String.join(" ", scopes);
    }

    private static String printable(String s) {
        if (s == null) {
            return "null";
        }
        String cut = s.length() > 40 ? s.substring(0, 40) + "..." : s;
        StringBuilder b = new StringBuilder();
        cut.chars().forEach(c -> b.append(c >= 0x20 && c < 0x7f ? (char) c : '?'));
        return b.toString();
    }

    /** The scope an endpoint needs, read by {@link AuthFilters}; carried by the per-scope annotations below. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.ANNOTATION_TYPE, ElementType.TYPE, ElementType.METHOD})
    public @interface RequiresScope {
        String value();
    }

    /** Requires {@value #MANDATES_READ}: an API key or a bearer token holding that scope. */
    @RequiresScope(MANDATES_READ)
    @SecurityRequirement(name = OpenApiContract.API_KEY)
    @SecurityRequirement(name = OpenApiContract.OAUTH2, scopes = MANDATES_READ)
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    public @interface MandatesRead {
    }

    /** Requires {@value #MANDATES_WRITE}: an API key or a bearer token holding that scope. */
    @RequiresScope(MANDATES_WRITE)
    @SecurityRequirement(name = OpenApiContract.API_KEY)
    @SecurityRequirement(name = OpenApiContract.OAUTH2, scopes = MANDATES_WRITE)
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    public @interface MandatesWrite {
    }

    /** Requires {@value #MANDATES_SIGN}: an API key or a bearer token holding that scope. */
    @RequiresScope(MANDATES_SIGN)
    @SecurityRequirement(name = OpenApiContract.API_KEY)
    @SecurityRequirement(name = OpenApiContract.OAUTH2, scopes = MANDATES_SIGN)
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    public @interface MandatesSign {
    }

    /** Requires {@value #DISPUTES_WRITE}: an API key or a bearer token holding that scope. */
    @RequiresScope(DISPUTES_WRITE)
    @SecurityRequirement(name = OpenApiContract.API_KEY)
    @SecurityRequirement(name = OpenApiContract.OAUTH2, scopes = DISPUTES_WRITE)
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    public @interface DisputesWrite {
    }

    /** Requires {@value #INVOICES_READ}: an API key or a bearer token holding that scope. */
    @RequiresScope(INVOICES_READ)
    @SecurityRequirement(name = OpenApiContract.API_KEY)
    @SecurityRequirement(name = OpenApiContract.OAUTH2, scopes = INVOICES_READ)
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    public @interface InvoicesRead {
    }

    /** Requires {@value #INVOICES_WRITE}: an API key or a bearer token holding that scope. */
    @RequiresScope(INVOICES_WRITE)
    @SecurityRequirement(name = OpenApiContract.API_KEY)
    @SecurityRequirement(name = OpenApiContract.OAUTH2, scopes = INVOICES_WRITE)
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    public @interface InvoicesWrite {
    }

    /** Requires {@value #WEBHOOKS_MANAGE}: an API key or a bearer token holding that scope. */
    @RequiresScope(WEBHOOKS_MANAGE)
    @SecurityRequirement(name = OpenApiContract.API_KEY)
    @SecurityRequirement(name = OpenApiContract.OAUTH2, scopes = WEBHOOKS_MANAGE)
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.TYPE, ElementType.METHOD})
    public @interface WebhooksManage {
    }
}
