package dev.agentpay.mandate.budget.domain;

import dev.agentpay.mandate.signing.CanonicalJson;
import java.math.BigInteger;
import java.time.Duration;

/**
 * The budget the parties sign: {@code amount} (USDC, decimal text as sent), {@code currency} ({@code USDC}),
 * {@code period} (an ISO 8601 duration as sent, or null: one budget for the mandate's life) and
 * {@code max_per_charge} (decimal text or null). The texts are kept as sent, so what the client sent is what it
 * signs; {@link #canonicalJson()} is the member {@code "budget"} of the canonical signing object.
 */
public record BudgetTerms(String amount, String currency, String period, String maxPerCharge) {

    public static final String USDC = "USDC";

    public BigInteger amountAtomic() {
        return Usdc.atomic(amount);
    }

    /** The per-charge limit in atomic units, or {@code null} when there is none. */
    public BigInteger maxPerChargeAtomic() {
        return maxPerCharge == null ? null : Usdc.atomic(maxPerCharge);
    }

    /** The renewal period, or {@code null} when the budget never renews. */
    public Duration periodDuration() {
        return period == null ? null : Duration.parse(period);
    }

    /**
     * {@code {"amount":..,"currency":..,"max_per_charge":..|null,"period":..|null}}: keys sorted, every member
     * present (absent ones as {@code null}), as JavaScript's {@code JSON.stringify} writes that object.
     */
    public String canonicalJson() {
        StringBuilder out = new StringBuilder(96);
        out.append("{\"amount\":");
        CanonicalJson.quote(out, amount);
        out.append(",\"currency\":");
        CanonicalJson.quote(out, currency);
        out.append(",\"max_per_charge\":");
        quoteOrNull(out, maxPerCharge);
        out.append(",\"period\":");
        quoteOrNull(out, period);
        return out.append('}').toString();
    }

    private static void quoteOrNull(StringBuilder out, String s) {
        if (s == null) {
            out.append("null");
        } else {
            CanonicalJson.quote(out, s);
        }
    }
}
