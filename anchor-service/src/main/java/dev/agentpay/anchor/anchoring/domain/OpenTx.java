package dev.agentpay.anchor.anchoring.domain;

import java.time.Instant;

/**
 * A stored transaction whose receipt is not recorded yet: {@code signer}'s transaction at {@code nonce};
 * {@code kind} {@code ANCHOR} (carries intents), {@code AUTHORISE} or {@code RETIRE} (a rotation's
 * {@code addSigner}/{@code removeSigner}).
 */
public record OpenTx(String signer, long nonce, String hash, String raw, Instant createdAt, Instant broadcastAt, String kind) {

    public static final String ANCHOR = "ANCHOR";
    public static final String AUTHORISE = "AUTHORISE";
    public static final String RETIRE = "RETIRE";

    public boolean anchors() {
        return ANCHOR.equals(kind);
    }
}
