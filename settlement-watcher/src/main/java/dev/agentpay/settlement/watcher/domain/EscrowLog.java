package dev.agentpay.settlement.watcher.domain;

import dev.agentpay.commons.chains.escrow.MandateEscrowAbi;
import dev.agentpay.commons.events.EscrowEvent;

/**
 * An event of the chain's MandateEscrow contract as read from the chain, with the escrow's totals read from the
 * contract at its block. A published event that vanished in a reorg comes back from the database with its
 * identity only ({@code event} and {@code totals} null).
 */
public record EscrowLog(String chain, String contract, String txHash, int logIndex, long block, String blockHash,
        String escrowId, String mandateHash, MandateEscrowAbi.Event event, MandateEscrowAbi.Totals totals) {

    public String id() {
        return EscrowEvent.logId(chain, txHash, logIndex);
    }
}
