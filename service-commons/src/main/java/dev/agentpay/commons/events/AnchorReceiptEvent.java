package dev.agentpay.commons.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;

/**
 * A mandate transition anchored on chain: the {@code MandateAnchored} log that carries it.
 * Type is always {@code anchor.receipt}; the aggregate is the mandate. {@code contract} is the address of the
 * MandateAnchor contract that emitted the log ({@code 0x} lowercase hex; null in receipts of earlier builds);
 * {@code signer} the anchor signer that sent its transaction ({@code 0x} lowercase hex; null in receipts written
 * before signer rotation, whose signer is the log's {@code sender}).
 */
public record AnchorReceiptEvent(
        @JsonUnwrapped EventHeader header,
        String transitionId,
        String mandateHash,
        String state,
        long chainId,
        String txHash,
        long blockNumber,
        int logIndex,
        String contract,
        // absent rather than null when unknown, so receipts without it are written byte for byte as before
        @JsonInclude(JsonInclude.Include.NON_NULL) String signer) implements DomainEvent {

    public static final String TYPE = "anchor.receipt";
    public static final int SCHEMA_VERSION = 1;

    /**
     * A receipt without the emitting contract's address, as anchor-service wrote them before the proof
     * document needed it; {@code contract} is null (also when such an event is decoded).
     */
    public AnchorReceiptEvent(EventHeader header, String transitionId, String mandateHash, String state, long chainId,
            String txHash, long blockNumber, int logIndex) {
        this(header, transitionId, mandateHash, state, chainId, txHash, blockNumber, logIndex, null, null);
    }

    /** A receipt without the signer, as anchor-service wrote them before signer rotation; {@code signer} is null. */
    public AnchorReceiptEvent(EventHeader header, String transitionId, String mandateHash, String state, long chainId,
            String txHash, long blockNumber, int logIndex, String contract) {
        this(header, transitionId, mandateHash, state, chainId, txHash, blockNumber, logIndex, contract, null);
    }

    @Override
    public String topic() {
        return Topics.ANCHOR_RECEIPTS;
    }
}
