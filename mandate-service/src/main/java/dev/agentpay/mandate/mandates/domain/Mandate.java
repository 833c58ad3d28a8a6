package dev.agentpay.mandate.mandates.domain;

import dev.agentpay.mandate.signing.SignatureScheme;
import dev.agentpay.mandate.signing.MandateParty;
import java.time.Instant;
import java.util.List;

/**
 * One mandate row. The identity, parties, scope, terms and expiry never change after creation (they are
 * what was signed); the remaining fields follow the state machine.
 */
public class Mandate {

    public String id;
    public String partnerId;
    public String proposerAgentId;
    public String counterpartyAgentId;
    public String scope;
    /** Canonical terms JSON text, exactly as signed. */
    public String terms;
    /** Opaque context JSON text, or {@code null}. */
    public String context;
    public MandateState state;
    public String protoMandateHash;
    public String protoVersion;
    public String proposerSignature;
    public String counterpartySignature;
    public Instant signedByProposerAt;
    public Instant signedByCounterpartyAt;
    public Instant completedAt;
    public String disputeReason;
    public Instant disputedAt;
    public Instant expiresAt;
    public String drsReceiptId;
    public Instant createdAt;
    public Instant updatedAt;
    /** How each party signs; fixed at creation ({@code hmac} for every v0.1 mandate). */
    public SignatureScheme proposerScheme = SignatureScheme.HMAC;
    public SignatureScheme counterpartyScheme = SignatureScheme.HMAC;
    /** The EIP-712 domain wallet parties sign, or null when neither party is a wallet. */
    public Long eip712ChainId;
    public String eip712Contract;
    /** The signed budget (issue 28), or {@code null}: part of the signing bytes only when present. */
    public dev.agentpay.mandate.budget.domain.BudgetTerms budget;
    /** The budget's money state as read with the mandate (for {@code budget_remaining}), or {@code null}. */
    public dev.agentpay.mandate.budget.domain.BudgetLedger budgetLedger;
    /** The mandate's escrow on chain as settlement-watcher reported it (issue 30), or {@code null}. */
    public dev.agentpay.mandate.escrow.domain.EscrowState escrow;

    /**
     * The parties form ({@code parties: [{id, role}]} at creation), in signing order, with each party's scheme and
     * signature; {@code null} for a two-party mandate ({@code proposer}/{@code counterparty}). In the parties form
     * the proposer fields mirror the first party (it signs first) and the counterparty fields are null.
     */
    public List<Party> parties;

    /** Whether the mandate was created in the parties form. */
    public boolean partiesForm() {
        return parties != null;
    }

    /**
     * Every party in signing order, whichever form: the parties of the parties form, or {@code proposer} then
     * {@code counterparty} (copies: signing a two-party mandate writes its own fields).
     */
    public List<Party> signers() {
        if (parties != null) {
            return parties;
        }
        return List.of(new Party(proposerAgentId, "proposer", proposerScheme, proposerSignature, signedByProposerAt),
                new Party(counterpartyAgentId, "counterparty", counterpartyScheme, counterpartySignature,
                        signedByCounterpartyAt));
    }

    /** The signed id/role pairs of the parties form. */
    public List<MandateParty> signedParties() {
        return parties.stream().map(Party::signedFields).toList();
    }

    /** When the last party signed (the mandate became fully signed), or null while some have not. */
    public Instant fullySignedAt() {
        List<Party> all = signers();
        return all.stream().allMatch(Party::signed) ? all.get(all.size() - 1).signedAt : null;
    }

    /** The scheme of {@code role} ({@code proposer} or {@code counterparty}). */
    public SignatureScheme scheme(boolean proposer) {
        return proposer ? proposerScheme : counterpartyScheme;
    }

    /** Whether either party signs with a wallet (the mandate hash is then the EIP-712 digest). */
    public boolean hasWalletParty() {
        if (parties != null) {
            return parties.stream().anyMatch(p -> p.scheme == SignatureScheme.EIP712);
        }
        return proposerScheme == SignatureScheme.EIP712 || counterpartyScheme == SignatureScheme.EIP712;
    }

    /** Whether {@code now} lies at or after the expiry instant. */
    public boolean pastExpiry(Instant now) {
        return !now.isBefore(expiresAt);
    }
}
