package dev.agentpay.commons.events;

import com.fasterxml.jackson.annotation.JsonUnwrapped;
import java.math.BigInteger;

/**
 * A token transfer to a seller payment address seen (type {@code chain.transfer.detected}) or found to
 * have vanished in a reorg ({@code chain.transfer.retracted}). The aggregate id is
 * {@code chain:txHash:index}, which identifies the transfer across detections.
 *
 * @param index  log index (EVM) or instruction index (Solana) of the transfer within its transaction
 * @param block  block number (EVM) or slot (Solana)
 * @param amount amount in the token's atomic units
 * @param memo   the transfer's memo (Solana), or {@code null}
 * @param source {@code evm-detector} or {@code solana-detector}
 */
public record ChainTransferEvent(
        @JsonUnwrapped EventHeader header,
        String chain,
        String txHash,
        int index,
        long block,
        String blockHash,
        String from,
        String to,
        BigInteger amount,
        String token,
        String memo,
        String source) implements DomainEvent {

    public static final String DETECTED = "chain.transfer.detected";
    public static final String RETRACTED = "chain.transfer.retracted";
    public static final int SCHEMA_VERSION = 1;

    public static String transferId(String chain, String txHash, int index) {
        return chain + ":" + txHash + ":" + index;
    }

    @Override
    public String topic() {
        return Topics.CHAIN_TRANSFERS;
    }
}
