package dev.agentpay.mandate.mandates.domain;

import dev.agentpay.mandate.signing.MandateParty;
import dev.agentpay.mandate.signing.SignatureScheme;
import java.time.Instant;

/**
 * One signing party of a mandate, in signing order: its id and role (fixed at creation, signed), the scheme
 * it signs with (fixed at creation), and its signature once given. For a two-party mandate the two are
 * {@code proposer} and {@code counterparty} ({@link Mandate#signers()}); in the parties form they are the
 * {@code parties} of the request, stored in the mandate's {@code parties} column.
 */
public final class Party {

    public final String id;
    public final String role;
    public final SignatureScheme scheme;
    public String signature;
    public Instant signedAt;

    public Party(String id, String role, SignatureScheme scheme, String signature, Instant signedAt) {
        this.id = id;
        this.role = role;
        this.scheme = scheme;
        this.signature = signature;
        this.signedAt = signedAt;
    }

    public boolean signed() {
        return signature != null;
    }

    /** What is signed about this party: id and role. */
    public MandateParty signedFields() {
        return new MandateParty(id, role);
    }
}
