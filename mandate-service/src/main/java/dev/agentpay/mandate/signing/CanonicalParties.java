package dev.agentpay.mandate.signing;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/**
 * The canonical signing bytes of a mandate in the parties form (more than two parties, or two parties with
 * roles of their own), byte-exact with a JavaScript partner:
 *
 * <pre>{@code
 * JSON.stringify({expires_at: new Date(expires_at).toISOString(), id,
 *                 parties: parties.map(p => ({id: p.id, role: p.role})),   // in the given (signing) order
 *                 scope, terms: sortKeysDeep(JSON.parse(termsText))})
 * }</pre>
 *
 * Keys are in alphabetical order at every level, as in the two-party form ({@link CanonicalMandate}); there is
 * no {@code proposer_agent_id}/{@code counterparty_agent_id}: the parties array replaces both. The
 * role-bound form ({@code hmac-role}) adds {@code signer_role} between {@code scope} and {@code terms}. The
 * two-party form's bytes are untouched by this class. Reference: {@code src/test/js/generate-parties-vectors.mjs}.
 */
public final class CanonicalParties {

    private CanonicalParties() {
    }

    /** The bytes every party signs with {@code hmac}, and whose SHA-256 is the mandate hash of an HMAC-only mandate. */
    public static byte[] bytes(Instant expiresAt, String id, List<MandateParty> parties, String scope, String canonicalTerms) {
        return bytes(expiresAt, id, parties, scope, null, canonicalTerms);
    }

    /** The role-bound bytes ({@code hmac-role}): {@code signerRole} null gives {@link #bytes(Instant, String, List, String, String)}. */
    public static byte[] bytes(Instant expiresAt, String id, List<MandateParty> parties, String scope, String signerRole,
            String canonicalTerms) {
        if (expiresAt == null || id == null || parties == null || scope == null || canonicalTerms == null) {
            throw new IllegalArgumentException("expires_at, id, parties, scope and terms are required");
        }
        StringBuilder out = new StringBuilder(200 + canonicalTerms.length() + parties.size() * 64);
        out.append("{\"expires_at\":");
        CanonicalJson.quote(out, CanonicalMandate.isoMillis(expiresAt));
        out.append(",\"id\":");
        CanonicalJson.quote(out, id);
        out.append(",\"parties\":[");
        for (int i = 0; i < parties.size(); i++) {
            MandateParty p = parties.get(i);
            if (i > 0) {
                out.append(',');
            }
            out.append("{\"id\":");
            CanonicalJson.quote(out, p.id());
            out.append(",\"role\":");
            CanonicalJson.quote(out, p.role());
            out.append('}');
        }
        out.append("],\"scope\":");
        CanonicalJson.quote(out, scope);
        if (signerRole != null) {
            out.append(",\"signer_role\":");
            CanonicalJson.quote(out, signerRole);
        }
        out.append(",\"terms\":").append(canonicalTerms).append('}');
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }
}
