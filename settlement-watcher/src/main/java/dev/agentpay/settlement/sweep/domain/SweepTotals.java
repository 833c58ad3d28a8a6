package dev.agentpay.settlement.sweep.domain;

import java.math.BigInteger;

/** Per chain: received at deposit addresses, swept to the seller wallet, and still held. */
public record SweepTotals(String chain, BigInteger received, BigInteger swept, BigInteger held, long openBatches, long failedBatches) {
}
