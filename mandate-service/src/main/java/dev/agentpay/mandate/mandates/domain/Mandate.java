package dev.agentpay.mandate.mandates.domain;

import dev.agentpay.mandate.signing.SignatureScheme;
import java.time.Instant;

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

    /** The scheme of {@code role} ({@code proposer} or {@code counterparty}). */
    public SignatureScheme scheme(boolean proposer) {
        return proposer ? proposerScheme : counterpartyScheme;
    }

    /** Whether either party signs with a wallet (the mandate hash is then the EIP-712 digest). */
    public boolean hasWalletParty() {
        return proposerScheme == SignatureScheme.EIP712 || counterpartyScheme == SignatureScheme.EIP712;
    }

    /** Whether {@code now} lies at or after the expiry instant. */
    public boolean pastExpiry(Instant now) {
        return !now.isBefore(expiresAt);
    }
}
