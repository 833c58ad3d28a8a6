package dev.agentpay.invoice.domain;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.UUID;

/** One invoice as stored. Amounts: {@code amount} in USDC, {@code *Atomic} in the token's 6-decimal units. */
public record Invoice(
        UUID id,
        long invoiceNumber,
        String partnerId,
        InvoiceStatus status,
        BigDecimal amount,
        String currency,
        String customerEmail,
        String customerName,
        String description,
        String chain,
        String networkId,
        String paymentAddress,
        String usdcAddress,
        BigInteger payableAtomic,
        String memo,
        String txHash,
        Long settlementBlockNumber,
        String settlementSource,
        String settlementTransferId,
        BigInteger paidAtomic,
        String payerAddress,
        Instant settledAt,
        Instant createdAt) {
}
