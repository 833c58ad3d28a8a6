package dev.agentpay.anchor.anchoring.domain;

import java.time.Instant;

/**
 * One signer rotation (table {@code anchor_rotation}): {@code AUTHORISING} (the outgoing signer still signs;
 * its {@code addSigner(to)} is sent), {@code DRAINING} (the incoming signer signs; the outgoing one's open
 * transactions are confirmed), {@code RETIRING} (the incoming signer's {@code removeSigner(from)} is sent),
 * {@code DONE}.
 */
public record Rotation(long id, String fromSigner, String toSigner, long chainId, String contract, String status,
        Instant requestedAt, Long authoriseNonce, String authorisedTx, Long authorisedBlock, Instant switchedAt,
        Long retireNonce, String retiredTx, Long retiredBlock, Instant doneAt) {

    public static final String AUTHORISING = "AUTHORISING";
    public static final String DRAINING = "DRAINING";
    public static final String RETIRING = "RETIRING";
    public static final String DONE = "DONE";

    /** The signer that signs new batches while this rotation is in this status. */
    public String activeSigner() {
        return AUTHORISING.equals(status) ? fromSigner : toSigner;
    }
}
