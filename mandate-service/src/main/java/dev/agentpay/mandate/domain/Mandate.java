package dev.agentpay.mandate.domain;

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

    /** Whether {@code now} lies at or after the expiry instant. */
    public boolean pastExpiry(Instant now) {
        return !now.isBefore(expiresAt);
    }
}
