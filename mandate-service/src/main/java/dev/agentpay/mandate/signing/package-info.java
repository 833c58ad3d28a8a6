/**
 * Canonical mandate signing, byte-exact with a JavaScript partner.
 *
 * <p>{@link dev.agentpay.mandate.signing.CanonicalMandate} is the entry point; the JavaScript reference
 * and the committed test vectors live in {@code src/test/js/generate-canonical-vectors.mjs} and
 * {@code src/test/resources/canonical/}. Decisions where JavaScript leaves room:
 * <ul>
 *   <li>terms are normalized once at creation and the canonical text is stored and signed verbatim;</li>
 *   <li>terms must be one JSON object, at most {@value dev.agentpay.mandate.signing.CanonicalJson#MAX_DEPTH}
 *       levels deep, without the key {@code __proto__} (JavaScript canonicalizers disagree on it);</li>
 *   <li>{@code expires_at} is read by {@link dev.agentpay.mandate.signing.JsDate#parse}, which accepts only
 *       ISO 8601 with {@code Z} or an offset (or a bare date) and refuses what engines read differently;</li>
 *   <li>signatures are exactly 64 lowercase hex digits, compared in constant time;</li>
 *   <li>{@code proto_mandate_hash} is {@code 0x} + SHA-256 of the canonical bytes.</li>
 * </ul>
 */
package dev.agentpay.mandate.signing;
