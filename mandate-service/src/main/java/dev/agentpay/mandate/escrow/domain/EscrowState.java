package dev.agentpay.mandate.escrow.domain;

import java.math.BigInteger;

/**
 * A mandate's escrow as the chain reports it (issue 30): the escrow of the mandate's first funding still on chain, with
 * the totals and state the contract had at the latest event applied (settlement-watcher reads them from the contract at
 * that block). Amounts in atomic USDC units; times unix seconds.
 */
public record EscrowState(
        String chain,
        String contract,
        String escrowId,
        String mandateHash,
        String funder,
        String counterparty,
        BigInteger funded,
        BigInteger released,
        BigInteger withdrawn,
        BigInteger refunded,
        BigInteger held,
        String state,
        Long streamStart,
        Long streamEnd,
        Long expiresAt) {

    public static final String ACTIVE = "active";
    public static final String FROZEN = "frozen";

    /** Whether the escrow still holds money for the mandate (funded, not yet emptied). */
    public boolean holding() {
        return held.signum() > 0;
    }
}
