package dev.agentpay.settlement.escrow.domain;

/** An escrow command as received, with the calldata it sends to the chain's MandateEscrow. */
public record NewCommand(String commandId, String chain, String type, String escrowId, String mandateHash, String calldata) {
}
