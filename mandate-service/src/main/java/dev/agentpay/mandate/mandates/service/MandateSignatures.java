package dev.agentpay.mandate.mandates.service;

import dev.agentpay.commons.error.ApiException;
import dev.agentpay.mandate.mandates.domain.Mandate;
import dev.agentpay.mandate.signing.CanonicalMandate;
import dev.agentpay.mandate.signing.CanonicalParties;
import dev.agentpay.mandate.signing.Eip712Parties;
import dev.agentpay.mandate.signing.Eip712Mandate;
import dev.agentpay.mandate.signing.SignatureScheme;
import dev.agentpay.mandate.signing.WalletParty;

/** What each party of a mandate signs (HMAC bytes, EIP-712 typed data) and the checks of a signature. */
public final class MandateSignatures {

    private MandateSignatures() {
    }

    public static byte[] signingBytes(Mandate m) {
        if (m.partiesForm()) {
            return CanonicalMandate.withBudget(CanonicalParties.bytes(m.expiresAt, m.id, m.signedParties(), m.scope, m.terms),
                    budgetJson(m));
        }
        return CanonicalMandate.withBudget(
                CanonicalMandate.bytes(m.counterpartyAgentId, m.expiresAt, m.id, m.proposerAgentId, m.scope, m.terms),
                budgetJson(m));
    }

    /** The canonical {@code budget} member's value, or {@code null} for a mandate without a budget (v0.1 bytes). */
    static String budgetJson(Mandate m) {
        return m.budget == null ? null : m.budget.canonicalJson();
    }

    /** The EIP-712 {@code Budget} struct, or {@code null} for a mandate without a budget (the v0.2 struct unchanged). */
    public static Eip712Mandate.Budget eip712Budget(Mandate m) {
        return m.budget == null ? null : Eip712Mandate.Budget.of(m.budget.amount(), m.budget.currency(),
                m.budget.maxPerCharge(), m.budget.period());
    }

    /** What an {@code hmac} or {@code hmac-role} party signs. */
    public static byte[] hmacBytes(Mandate m, String role, SignatureScheme scheme) {
        if (m.partiesForm()) {
            return CanonicalMandate.withBudget(CanonicalParties.bytes(m.expiresAt, m.id, m.signedParties(), m.scope,
                    scheme == SignatureScheme.HMAC_ROLE ? role : null, m.terms), budgetJson(m));
        }
        return CanonicalMandate.withBudget(CanonicalMandate.bytes(m.counterpartyAgentId, m.expiresAt, m.id,
                m.proposerAgentId, m.scope, scheme == SignatureScheme.HMAC_ROLE ? role : null, m.terms), budgetJson(m));
    }

    public static Eip712Mandate.Domain domain(Mandate m) {
        return new Eip712Mandate.Domain(m.eip712ChainId, m.eip712Contract);
    }

    /** The EIP-712 digest wallet parties sign (either form): the mandate hash of a mandate with a wallet party. */
    public static byte[] walletDigest(Mandate m) {
        if (m.partiesForm()) {
            return Eip712Parties.digest(domain(m), Eip712Parties.message(m.id, m.signedParties(), m.scope, m.terms,
                    CanonicalMandate.isoMillis(m.expiresAt), m.protoVersion), eip712Budget(m));
        }
        return Eip712Mandate.digest(domain(m), eip712Message(m), eip712Budget(m));
    }

    /** The EIP-712 typed data of the proof (either form). */
    public static java.util.Map<String, Object> typedData(Mandate m) {
        if (m.partiesForm()) {
            return Eip712Parties.typedData(domain(m), Eip712Parties.message(m.id, m.signedParties(), m.scope, m.terms,
                    CanonicalMandate.isoMillis(m.expiresAt), m.protoVersion), eip712Budget(m));
        }
        return Eip712Mandate.typedData(domain(m), eip712Message(m), eip712Budget(m));
    }

    public static Eip712Mandate.Message eip712Message(Mandate m) {
        return Eip712Mandate.message(m.id, m.proposerAgentId, m.counterpartyAgentId, m.scope, m.terms,
                CanonicalMandate.isoMillis(m.expiresAt), m.protoVersion);
    }

    public static WalletParty wallet(String field, String party) {
        try {
            return WalletParty.parse(party);
        } catch (IllegalArgumentException e) {
            throw ApiException.invalidField(field, e.getMessage());
        }
    }

    public static void verifyHmac(Mandate m, String role, SignatureScheme scheme, String secret, String signature) {
        if (secret == null || !CanonicalMandate.verify(hmacBytes(m, role, scheme), secret, signature)) {
            throw ApiException.forbidden("invalid_signature", scheme == SignatureScheme.HMAC_ROLE
                    ? "signature is not the HMAC-SHA256 of the role-bound canonical mandate bytes (signer_role \""
                            + role + "\") with your signing secret"
                    : "signature is not the HMAC-SHA256 of the canonical mandate bytes with your signing secret");
        }
    }

    public static void verifyWallet(Mandate m, boolean proposer, String signature) {
        WalletParty party = WalletParty.parse(proposer ? m.proposerAgentId : m.counterpartyAgentId);
        String recovered;
        try {
            recovered = Eip712Mandate.recover(Eip712Mandate.digest(domain(m), eip712Message(m), eip712Budget(m)), signature);
        } catch (IllegalArgumentException e) {
            throw ApiException.forbidden("invalid_signature", e.getMessage());
        }
        if (!recovered.equals(party.address())) {
            throw ApiException.forbidden("invalid_signature", "signature recovers " + recovered + ", not the "
                    + (proposer ? "proposer" : "counterparty") + "'s address " + party.address()
                    + " (signed another mandate, domain or chain, or by another key)");
        }
    }
}
