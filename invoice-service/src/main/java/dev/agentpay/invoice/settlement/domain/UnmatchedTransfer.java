package dev.agentpay.invoice.settlement.domain;

/** A transfer to a seller wallet that settled nothing, kept for the operator (refund or manual match). */
public record UnmatchedTransfer(String transferId, String chain, String txHash, int index, long block,
        String from, String to, String token, String amountAtomic, String memo, String reason, String detectedAt) {
}
